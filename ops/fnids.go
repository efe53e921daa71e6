package ops

// The ids of the functors compiled into the kernels library (mgraph.h's
// MG_FN_*; the cuda package checks at compile time that they agree). The
// Go twins live with their apps in package apps.
const (
	FnBFS        = 1  // BFS levels: claim unvisited destinations
	FnSSSP       = 2  // SSSP: relax with an atomic min
	FnSimple     = 3  // keep arcs that are not self-loops or repeats
	FnOrient     = 4  // keep simple arcs from lower to higher (degree, id)
	FnTriCount   = 5  // add an arc's common neighbours to its source
	FnEquals     = 6  // keep vertices whose a[0] entry is u[0]
	FnKcorePeel  = 7  // remove vertices of degree below k
	FnKcoreDrop  = 8  // decrement the degree of live destinations
	FnLocalMax   = 9  // mark undecided local maxima of a random priority
	FnJPColor    = 10 // smallest colour free among the neighbours
	FnMISJoin    = 11 // put marked vertices in the set
	FnMISExclude = 12 // exclude undecided neighbours of set members
	FnPRDangling = 13 // rank of vertices without out-arcs
	FnPRPull     = 14 // personalised PageRank's pull step
	FnL1Diff     = 15 // |a[0][v] − a[1][v]|
	FnScale      = 16 // a[0][v] *= f[0]
	FnGather     = 17 // row sum of a[0][u] / a[2][u] into a[1][v]
	FnPushAdd    = 18 // add a[0][src] / a[2][src] into a[1][dst]
	FnInSet      = 19 // keep arcs whose source is flagged in a[0]
	FnValue      = 20 // a[0][v], for sums
	FnFlagged    = 21 // 1 when the byte a[0][v] is set, for sums
	FnMSFReset   = 22 // Borůvka: reset a round's minima and hooks
	FnMSFMinW    = 23 // Borůvka: lightest arc leaving each component
	FnMSFMinEdge = 24 // Borůvka: of those, the least (min, max) end pair
	FnMSFHook    = 25 // Borůvka: hook each component along its edge
	FnMSFApply   = 26 // Borůvka: roots take their hooks
	FnMSFJump    = 27 // Borůvka: pointer jumping to the roots
	FnLast       = 27
)

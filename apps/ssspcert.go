package apps

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// SSSPCertificateArcs is the arc count from which ValidateSSSP checks the
// distances by their certificate (CheckSSSPCertificate, on every core)
// instead of against a serial Dijkstra, which takes tens of minutes on
// graphs of billions of arcs.
const SSSPCertificateArcs = 1 << 28

// ErrZeroWeight is CheckSSSPCertificate's refusal of a graph with an arc of
// weight zero: there, tight arcs can close a cycle that no path from the
// source reaches, so they prove nothing.
var ErrZeroWeight = errors.New("the graph has an arc of weight zero: tight arcs do not prove paths")

// certChunksPerWorker cuts CheckSSSPCertificate's arcs into this many
// chunks a worker (cut at row ends, of nearly equal arcs): R-MAT's rows are
// far longer at low ids, and equal vertex ranges would leave one worker
// most of the arcs.
const certChunksPerWorker = 4

// CheckSSSPCertificate checks uint32 distances from source (Unreached where
// unreached or 2^32−1 and beyond, the engines' saturation) without
// computing them again, in two passes over g on workers goroutines:
//
//   - every arc u→v of weight w with dist[u] reached has dist[u]+w ≥
//     dist[v] (no arc relaxes a vertex, so no distance is too large and no
//     vertex within reach is left Unreached), and
//   - every reached vertex but the source has a tight in-arc, dist[u]+w =
//     dist[v] (so, the weights being positive, every reached distance is
//     the length of a path from the source: none is too small),
//
// with dist[source] = 0. Together they hold exactly when dist is the
// shortest-path distances (saturated). It returns nil if so, an error naming
// a vertex otherwise, and ErrZeroWeight (wrapped) for a graph with a weight
// of zero, which it cannot check this way.
func CheckSSSPCertificate(g *graph.CSR, source uint32, dist []uint32, workers int) error {
	n := g.NumVertices
	switch {
	case !g.Weighted():
		return errors.New("SSSP needs a weighted graph")
	case uint64(source) >= n:
		return fmt.Errorf("source %d is not a vertex of a graph with %d vertices", source, n)
	case uint64(len(dist)) != n:
		return fmt.Errorf("got %d distances for %d vertices", len(dist), n)
	case dist[source] != 0:
		return fmt.Errorf("vertex %d (the source): distance %d, want 0", source, dist[source])
	}
	tight := make([]uint32, n) // 1 where an in-arc is tight
	chunks := arcChunks(g.Offsets, par.Workers(workers)*certChunksPerWorker)
	fails := make([]error, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		for u := c.Lo; u < c.Hi; u++ {
			du := dist[u]
			if du == Unreached {
				continue
			}
			nbrs, ws := g.Row(uint32(u))
			for i, v := range nbrs {
				w := ws[i]
				if w == 0 {
					fails[c.Index] = fmt.Errorf("arc %d→%d: %w", u, v, ErrZeroWeight)
					return
				}
				d := uint64(du) + uint64(w)
				switch dv := uint64(dist[v]); {
				case d < dv:
					fails[c.Index] = fmt.Errorf("vertex %d: distance %s, but arc %d→%d (weight %d) from distance %d gives %d",
						v, distString(dist[v]), u, v, w, du, d)
					return
				case d == dv && atomic.LoadUint32(&tight[v]) == 0:
					atomic.StoreUint32(&tight[v], 1)
				}
			}
		}
	})
	if err := firstError(fails); err != nil {
		return err
	}
	vchunks := par.Split(int(n), par.Workers(workers))
	fails = make([]error, len(vchunks))
	par.ForChunks(vchunks, func(c par.Chunk) {
		for v := c.Lo; v < c.Hi; v++ {
			if dist[v] != Unreached && tight[v] == 0 && uint32(v) != source {
				fails[c.Index] = fmt.Errorf("vertex %d: distance %d, but no in-arc gives it (no path of that length from source %d)", v, dist[v], source)
				return
			}
		}
	})
	return firstError(fails)
}

// arcChunks cuts the rows of a CSR with row offsets offsets into at most
// parts chunks of consecutive rows of about equal arcs (par.SplitRows,
// empty ranges dropped), or of equal vertex counts when there are no arcs
// or fewer rows than parts.
func arcChunks(offsets []uint64, parts int) []par.Chunk {
	n := len(offsets) - 1
	if offsets[n] == 0 || n < parts {
		return par.Split(n, parts)
	}
	bounds := par.SplitRows(offsets, parts)
	chunks := make([]par.Chunk, 0, parts)
	for i := range parts {
		if lo, hi := bounds[i], bounds[i+1]; hi > lo {
			chunks = append(chunks, par.Chunk{Index: len(chunks), Lo: lo, Hi: hi})
		}
	}
	return chunks
}

// firstError returns the first non-nil error of errs, in chunk order (the
// lowest vertex range that failed).
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// distString prints a uint32 distance, Unreached spelled out.
func distString(d uint32) string {
	if d == Unreached {
		return "unreached"
	}
	return fmt.Sprint(d)
}

package bench

// TEPS is the papers' traversed-edges-per-second figure of one run of app
// over a graph of arcs arcs that took secs: |E|/time for bfs, sssp, cc and
// pr-delta, |E|·iterations/time for pr (the papers report PageRank per
// iteration), and 2|E|·sources/time for bc (a forward and a backward pass
// per source). It is 0 when secs is not positive.
func TEPS(app string, arcs uint64, iterations, sources int, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	e := float64(arcs)
	switch app {
	case "pr":
		return e * float64(max(1, iterations)) / secs
	case "bc":
		return 2 * e * float64(max(1, sources)) / secs
	}
	return e / secs
}

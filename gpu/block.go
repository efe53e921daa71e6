package gpu

import (
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
)

// BlockMaxLevel is the largest level a one-block run takes: mode auto hands
// a BFS to one thread block only from a frontier this small, and the block
// gives a level larger than this back to the grid-wide async engine (a
// wider level is the whole GPU's work). A block's level costs about 1.7 µs
// at 100 vertices and grows with its width: on the 1024 grid (levels of up
// to 2,048 vertices) one block took 6.5 ms for a BFS the async engine runs
// in 3.0; on luxembourg_osm no level has more than 285.
const BlockMaxLevel = 512

// A Brandes source over the rows takes levels of up to BlockMaxLevel.
var _ [cuda.BlockBCMaxLevel - BlockMaxLevel]struct{}

// ModeBlock names a one-block run in traces.
const ModeBlock = "block"

// blockFits says whether a one-block run takes this backend's layout and a
// frontier of count vertices.
func (b *Backend) blockFits(count uint64) bool {
	return b.blockMax >= b.l.NumVertices && count <= BlockMaxLevel
}

// iterateBlock continues BFS (program prog, ProgBFS) from the current
// frontier list's count vertices in one thread block (cuda.MinRun.BlockBFS:
// the block's own barrier between levels; over the fixed-width rows where
// the layout's rows fit them, unless WithoutBlockRows); a level it gives
// back (more than BlockMaxLevel vertices) goes on asynchronously, and
// over rows the layout is then outgrown (narrowStart). One iteration of
// mode "block" (plus the async one, if any).
func (b *Backend) iterateBlock(run *cuda.MinRun, p engine.Program[uint32], prog int, opts engine.RunOptions, count uint64) (engine.Result, error) {
	start := time.Now()
	st, err := run.BlockBFS(uint32(count), BlockMaxLevel, !b.noBlockRows)
	res := engine.Result{Iterations: 1, Seconds: time.Since(start).Seconds()}
	if err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	if opts.Trace {
		res.Trace = append(res.Trace, blockTrace(ModeBlock, st, count, res.Seconds))
	}
	if st.Left > 0 {
		if st.Rows {
			b.outgrown.Store(true)
		}
		ar, err := b.iterateAsync(run, p, prog, opts, uint64(st.Left), true)
		if err != nil {
			return res, err
		}
		res.Switches++
		res.Add(ar)
	}
	return res, nil
}

// blockSource adds Brandes source s's dependencies to the sums in one
// thread block (cuda.SumRun.BCBlock: the BFS, σ and δ level by level, the
// block's own barrier between levels; rows as in iterateBlock). One
// iteration of mode "block"; a source whose BFS reaches a level of more
// than BlockMaxLevel vertices runs again in one cluster (clusterSource)
// when the block read the rows and the cluster takes the layout, else
// without levels (asyncSource; the block's BFS so far is lost). The caller holds b.mu; the layout is
// undirected and fits (blockMax).
func (b *Backend) blockSource(run *cuda.SumRun, s uint32, opts engine.RunOptions) (engine.Result, error) {
	start := time.Now()
	st, err := run.BCBlock(s, BlockMaxLevel, !b.noBlockRows)
	if err == nil && st.Left == 0 {
		err = run.BCAccumulate(s)
	}
	res := engine.Result{Iterations: 1, Seconds: time.Since(start).Seconds()}
	if err != nil {
		return res, fmt.Errorf("cuda backend: bc: %w", err)
	}
	if opts.Trace {
		res.Trace = append(res.Trace, blockTrace(ModeBlock, st, 1, res.Seconds))
	}
	if st.Left > 0 {
		source := b.asyncSource
		if st.Rows && b.clusterFits(1) {
			b.outgrown.Store(true)
			source = b.clusterSource
		}
		ar, err := source(run, s, opts)
		if err != nil {
			return res, err
		}
		res.Switches++
		res.Add(ar)
	}
	return res, nil
}

// Block run sources in trace phase names: the fixed-width rows or the CSR.
const (
	blockSourceRows = "rows"
	blockSourceCSR  = "csr"
)

// blockTrace is the trace entry of a one-block or cluster run (mode) from
// a frontier of count vertices; its phase names the row source it read.
func blockTrace(mode string, st cuda.BlockStats, count uint64, seconds float64) engine.IterationTrace {
	src := blockSourceCSR
	if st.Rows {
		src = blockSourceRows
	}
	return engine.IterationTrace{Mode: mode, FrontierVertices: count, Seconds: seconds,
		Phases: []engine.Phase{{Name: fmt.Sprintf("%s (%s, %d levels, %d reached)", mode, src, st.Levels, st.Reached),
			Seconds: float64(st.Millis) / 1e3}}}
}

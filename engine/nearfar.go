package engine

import (
	"math"

	"github.com/mgraph-dev/mgraph/graph"
)

// NearFarWeights is the default near-far bucket width of SSSP in mean arc
// weights. On the 2048 grid with weights in [1, 64] (mean 32) the GPU
// engine time falls with the width from 274 ms at 8 to 48 ms at 1024 and
// 2048 (115 ms plain): wide buckets keep the frontier to a band of the
// wavefront without the many iterations of narrow ones.
const NearFarWeights = 32

// AsyncNearFarWeights is the default near-far bucket width of SSSP in
// Mode Async, in mean arc weights: wider than the iterations' because a
// bucket change is a barrier of every worker, the one an async run pays. On
// the 2048 grid with weights in [1, 64] (mean 32), from the middle vertex,
// the H100's async run takes 11.6 ms at 64, 13.2 at 128 and 16.1 at 256
// (an earlier build: 39.8 without buckets).
const AsyncNearFarWeights = 64

// CPUNearFarWeights is the default near-far bucket width of SSSP's
// iterations on the CPU backend (sampler.Runner.WithNearFar), in mean arc
// weights: narrower than the GPU's, whose iterations cost a kernel's
// launch and grid barrier however small. On the 1024 grid with weights in
// [1, 64] (mean 32.5), 2 threads, 1, 2, 4 and 8 mean weights took 71, 66,
// 65-67 and 69 ms (plain iterations: 0.7-1 s); on R-MAT 20 142, 127,
// 127-131 and 127-129 ms (R-MAT's distances span a few mean weights: one
// splits its few iterations).
const CPUNearFarWeights = 4

// CPUAsyncNearFarWeights is the default bucket width of SSSP's async runs
// on the CPU backend (delta-stepping with bin fusion, cpu/buckets.go), in
// mean arc weights: GAPBS's -d 32 over weights of mean 32. On the 1024
// grid (2 threads) 1, 2 and 4 mean weights took 38-40, 40 and 40-42 ms;
// on R-MAT 20 287-294, 351-357 and 349-375 ms.
const CPUAsyncNearFarWeights = 1

// NearFarSample is the number of arc weights whose mean sets the default
// near-far bucket width.
const NearFarSample = 1 << 16

// DefaultNearFarDelta returns the default near-far bucket width of
// iterations over arcs of the given weights: NearFarDelta(weights,
// NearFarWeights).
func DefaultNearFarDelta(weights []uint32) uint32 { return NearFarDelta(weights, NearFarWeights) }

// NearFarDelta returns factor times the mean of an evenly spaced sample of
// at most about NearFarSample of the weights (all of a graph's or a sample
// of them), at least 1 and at most 2^31; 0 when there are none.
func NearFarDelta(weights []uint32, factor uint64) uint32 {
	if len(weights) == 0 {
		return 0
	}
	stride := max(len(weights)/NearFarSample, 1)
	var sum, k uint64
	for i := 0; i < len(weights); i += stride {
		sum += uint64(weights[i])
		k++
	}
	return uint32(min(max(factor*sum/k, 1), 1<<31))
}

// NearFarDeltaOf is NearFarDelta for weights of kind k: for float32
// weights (bits) the width is factor times the mean weight as a float32's
// bits (which NearFarAdd adds as a float), at least the smallest positive
// float32 and at most math.MaxFloat32; 0 when there are no weights.
func NearFarDeltaOf(k graph.WeightKind, weights []uint32, factor uint64) uint32 {
	if k != graph.Float32Weights {
		return NearFarDelta(weights, factor)
	}
	if len(weights) == 0 {
		return 0
	}
	stride := max(len(weights)/NearFarSample, 1)
	var sum float64
	var count uint64
	for i := 0; i < len(weights); i += stride {
		sum += float64(math.Float32frombits(weights[i]))
		count++
	}
	d := float32(min(float64(factor)*sum/float64(count), math.MaxFloat32))
	return max(math.Float32bits(d), 1)
}

// NearFarDeltaOption returns the near-far bucket width a user's option
// asks for over weights of kind k: the integer opt as a width in distance
// units (opt > 0; as a float32's bits for float32 weights).
func NearFarDeltaOption(k graph.WeightKind, opt int64) uint32 {
	if k == graph.Float32Weights {
		return math.Float32bits(float32(opt))
	}
	return uint32(min(opt, math.MaxUint32>>1))
}

// SplitNearFar splits a near-far iteration's next frontier next (distinct
// vertices) at split: it keeps at the front of next, and returns, the
// vertices whose value is below split, clearing their bits in the bitset
// piled (an entry of theirs in a far pile is then stale); every other
// vertex whose bit is clear has it set and is appended to far, which it
// returns.
func SplitNearFar(values, next []uint32, split uint32, piled, far []uint32) (near, farOut []uint32) {
	k := 0
	for _, v := range next {
		w, m := &piled[v>>5], uint32(1)<<(v&31)
		if values[v] >= split {
			if *w&m == 0 {
				*w |= m
				far = append(far, v)
			}
			continue
		}
		*w &^= m
		next[k] = v
		k++
	}
	return next[:k], far
}

package apps

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// ssspProgram: a vertex's value is its tentative distance; an arc offers
// distance+weight (saturating); a vertex whose distance drops is active
// (data-driven Bellman–Ford, as in the papers).
type ssspProgram struct{}

var (
	_ engine.PlainMin = ssspProgram{}
	_ engine.PlainMin = ssspF32Program{}
)

func (ssspProgram) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusWeight }
func (ssspProgram) Combine() engine.CombineOp { return engine.CombineMin }
func (ssspProgram) ApplyAll() bool            { return false }

// DeviceKernel names the GPU functor (engine.DeviceProgram).
func (ssspProgram) DeviceKernel() string { return "sssp" }

// Monotone marks the program as safe to run asynchronously (engine.Monotone).
func (ssspProgram) Monotone() {}

// PlainMin marks Apply as the plain min (engine.PlainMin): the engines may
// relax the distances in place.
func (ssspProgram) PlainMin() {}

func (ssspProgram) Apply(v uint32, acc uint32, dist []uint32) bool {
	if acc < dist[v] {
		dist[v] = acc
		return true
	}
	return false
}

// ssspF32Program is ssspProgram over float32 weights: values are the bits
// of float32 distances (Unreached, 2^32-1, above all of them), an arc offers
// the float32 sum distance+weight (engine.EdgeSourcePlusFloat32Weight), and
// Apply's comparison of bits is the comparison of the non-negative floats.
type ssspF32Program struct{ ssspProgram }

func (ssspF32Program) Edge() engine.EdgeOp { return engine.EdgeSourcePlusFloat32Weight }

// DeviceKernel names the GPU functor (engine.DeviceProgram).
func (ssspF32Program) DeviceKernel() string { return "sssp-f32" }

// ErrFloat32Weights is wrapped by the error of an SSSP over uint32
// distances (SSSP, SSSPOps, MultiSourceSSSP) on a graph of float32
// weights, whose distances are float32: the Float32 variants run it.
var ErrFloat32Weights = errors.New("the graph's weights are float32, and so are its distances")

// errUint32Weights is the error of a Float32 variant on a graph of uint32
// weights (or none).
func errUint32Weights(app string, l *layout.Layout) error {
	if !l.Weighted {
		return fmt.Errorf("%s needs edge weights, and the graph has none", app)
	}
	return fmt.Errorf("%s: the graph's weights are %v, not float32 (its distances are uint32; read it with weight type float32 for float distances)", app, l.WeightKind)
}

// checkUint32Distances returns the error of app (an SSSP with uint32
// distances) on a graph of float32 weights, or nil.
func checkUint32Distances(app, float string, l *layout.Layout) error {
	if float32Weights(l) {
		return fmt.Errorf("%s: %w: use %s", app, ErrFloat32Weights, float)
	}
	return nil
}

// SSSP returns the shortest-path distance of every vertex from source over
// the uint32 arc weights, with Unreached for vertices it does not reach.
// Distances are exact while they stay below 2^32-1; a path longer than that
// saturates and reads as Unreached. A graph of float32 weights is refused
// (ErrFloat32Weights): SSSPFloat32 runs it.
// The result may be a buffer the backend reuses (engine.Backend.RunMin).
func SSSP(ctx context.Context, b engine.Backend, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	if err := checkUint32Distances("sssp", "SSSPFloat32", b.Layout()); err != nil {
		return nil, engine.Result{}, err
	}
	return runTraversal(ctx, b, "sssp", source, opts)
}

// SSSPFloat32 is SSSP over a graph of float32 weights: every vertex's
// distance from source as a float32, the least over the paths of their
// float32 sums in path order (ref.SSSPFloat32; the same on every backend
// and mode), +Inf where source does not reach (and where every path's sum
// passes float32's largest value). The result may be the backend's reused
// buffer, as SSSP's.
func SSSPFloat32(ctx context.Context, b engine.Backend, source uint32, opts engine.RunOptions) ([]float32, engine.Result, error) {
	return float32Run(b, func() ([]uint32, engine.Result, error) { return runTraversal(ctx, b, "sssp", source, opts) })
}

// float32Run runs an SSSP (run) on b's graph of float32 weights and turns
// its distances into float32s in place, the conversion timed with the
// copy; a graph of other weights is refused.
func float32Run(b engine.Backend, run func() ([]uint32, engine.Result, error)) ([]float32, engine.Result, error) {
	if l := b.Layout(); !float32Weights(l) {
		return nil, engine.Result{}, errUint32Weights("sssp", l)
	}
	dist, res, err := run()
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	f := Float32Distances(dist, b.Workers())
	res.CopySeconds += time.Since(start).Seconds()
	return f, res, nil
}

// Float32Distances turns float32 SSSP distances held as bits (Unreached
// where unreached) into float32s, +Inf where unreached, in place (on all
// workers), and returns them as a []float32 over the same memory.
func Float32Distances(bits []uint32, workers int) []float32 {
	inf := math.Float32bits(float32(math.Inf(1)))
	par.For(len(bits), workers, 1<<16, func(lo, hi int) {
		for i, b := range bits[lo:hi] {
			if b == Unreached {
				bits[lo+i] = inf
			}
		}
	})
	if len(bits) == 0 {
		return []float32{}
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&bits[0])), len(bits))
}

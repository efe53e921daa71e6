package graph

import (
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// WeightKind says what the numbers in a graph's weight slices ([]uint32)
// are. The zero value is Uint32Weights, so graphs made before float
// weights existed keep their meaning.
type WeightKind uint8

const (
	// Uint32Weights: every weight is an unsigned 32-bit integer.
	Uint32Weights WeightKind = iota
	// Float32Weights: every weight is the IEEE 754 bit pattern of a
	// finite, non-negative float32 other than -0 (at most MaxFloat32Bits).
	// For such floats the unsigned order of the bits is the order of the
	// values, so the engines' min-combines and atomic mins work on the bits
	// unchanged, and 2^32-1 (a NaN's bits, above every valid weight and
	// +Inf's bits) stays free to mean "unreached".
	Float32Weights
)

// MaxFloat32Bits is the bit pattern of math.MaxFloat32, the largest bit
// pattern a Float32Weights weight may have: above it are +Inf, the NaNs
// and every negative float (sign bit set), -0 included.
const MaxFloat32Bits = 0x7f7fffff

// String names the kind as flags and files name it: "uint32" or "float32".
func (k WeightKind) String() string {
	switch k {
	case Uint32Weights:
		return "uint32"
	case Float32Weights:
		return "float32"
	}
	return fmt.Sprintf("WeightKind(%d)", uint8(k))
}

// ParseWeightKind reads "uint32" or "float32".
func ParseWeightKind(s string) (WeightKind, error) {
	switch s {
	case "uint32":
		return Uint32Weights, nil
	case "float32":
		return Float32Weights, nil
	}
	return Uint32Weights, fmt.Errorf("unknown weight type %q (want uint32 or float32)", s)
}

// Float32WeightBits returns the stored bits of the weight w: an error for
// a negative, NaN or infinite w, and -0 stored as +0.
func Float32WeightBits(w float32) (uint32, error) {
	switch {
	case w != w:
		return 0, fmt.Errorf("weight is NaN (weights must be finite and non-negative)")
	case math.IsInf(float64(w), 0):
		return 0, fmt.Errorf("weight %v is infinite (weights must be finite and non-negative)", w)
	case w < 0:
		return 0, fmt.Errorf("weight %v is negative (weights must be finite and non-negative)", w)
	case w == 0:
		return 0, nil // -0 as well
	}
	return math.Float32bits(w), nil
}

// CheckFloat32Weights returns an error naming the first of the bit
// patterns w that is not a valid Float32Weights weight (see there), or nil.
func CheckFloat32Weights(w []uint32) error {
	for i, b := range w {
		if err := CheckFloat32Weight(b); err != nil {
			return fmt.Errorf("arc %d: %w", i, err)
		}
	}
	return nil
}

// CheckFloat32Weight returns why the bit pattern b is not a valid
// Float32Weights weight, or nil.
func CheckFloat32Weight(b uint32) error {
	if b > MaxFloat32Bits {
		return fmt.Errorf("weight %v (bits %#08x) is not a finite, non-negative float32 (-0 must be stored as +0)",
			math.Float32frombits(b), b)
	}
	return nil
}

// checkWeightKind checks a list's or an adjacency's kind against its
// weights.
func checkWeightKind(k WeightKind, weights []uint32) error {
	switch k {
	case Uint32Weights:
		return nil
	case Float32Weights:
		if weights == nil {
			return fmt.Errorf("graph has float32 weight type but no weights")
		}
		return CheckFloat32Weights(weights)
	}
	return fmt.Errorf("unknown weight type %d", uint8(k))
}

// ConvertWeights makes the list's weights of kind k (nothing to do for an
// unweighted list, whose kind stays Uint32Weights): uint32 weights become
// the float32 nearest to each (exact up to 2^24), float32 weights become
// uint32 when every one is an integer that fits, and an error names the
// first that is not.
func (el *EdgeList) ConvertWeights(k WeightKind, workers int) error {
	if el.Weights == nil || el.WeightKind == k {
		return nil
	}
	switch {
	case k == Float32Weights && el.WeightKind == Uint32Weights:
		w := el.Weights
		par.For(len(w), workers, 1<<16, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				w[i] = math.Float32bits(float32(w[i]))
			}
		})
	case k == Uint32Weights && el.WeightKind == Float32Weights:
		for i, b := range el.Weights {
			f := math.Float32frombits(b)
			if b > MaxFloat32Bits || f != float32(math.Trunc(float64(f))) || float64(f) > math.MaxUint32 {
				return fmt.Errorf("arc %d (%d→%d): float32 weight %v is not a uint32 integer", i, el.Src[i], el.Dst[i], f)
			}
		}
		w := el.Weights
		par.For(len(w), workers, 1<<16, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				w[i] = uint32(math.Float32frombits(w[i]))
			}
		})
	default:
		return fmt.Errorf("convert weights: unknown weight type %d", uint8(k))
	}
	el.WeightKind = k
	return nil
}

// SetRandomFloat32Weights gives every arc a float32 weight drawn uniformly
// from the 2^24 values k/2^24, k = 1..2^24 (so in (0, 1], each exact),
// using seed, as SetRandomWeights does for integers: both arcs of an
// undirected edge get the same weight, whatever the arc order or workers.
func (el *EdgeList) SetRandomFloat32Weights(seed uint64, workers int) {
	el.setHashedWeights(seed, Float32Weights, workers, func(h uint64) uint32 {
		return math.Float32bits(float32(h>>40+1) / (1 << 24))
	})
}

package engine

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// Frontier is the set of active vertices of an iteration, held either as a
// list of vertex ids (sparse mode) or as one flag per vertex (dense mode).
// Conversions between the two are done on demand and cached.
type Frontier struct {
	n       uint64
	list    []uint32
	flags   []uint8
	hasList bool
	hasFlag bool
	all     bool // made by AllActive: every vertex, whatever form it is held in
}

// NewFrontierList makes a frontier from a list of distinct vertex ids. The
// frontier takes ownership of list.
func NewFrontierList(n uint64, list []uint32) *Frontier {
	return &Frontier{n: n, list: list, hasList: true}
}

// NewFrontierFlags makes a frontier from per-vertex flags (non-zero =
// active). The frontier takes ownership of flags.
func NewFrontierFlags(flags []uint8) *Frontier {
	return &Frontier{n: uint64(len(flags)), flags: flags, hasFlag: true}
}

// AllActive returns a frontier holding every vertex.
func AllActive(n uint64) *Frontier {
	flags := make([]uint8, n)
	for i := range flags {
		flags[i] = 1
	}
	f := NewFrontierFlags(flags)
	f.all = true
	return f
}

// NumVertices is the size of the vertex set the frontier is drawn from.
func (f *Frontier) NumVertices() uint64 { return f.n }

// IsList reports whether the frontier is currently held as a list.
func (f *Frontier) IsList() bool { return f.hasList }

// HasFlags reports whether the frontier is currently held as flags (too).
func (f *Frontier) HasFlags() bool { return f.hasFlag }

// Len returns the number of active vertices.
func (f *Frontier) Len(workers int) uint64 {
	if f.hasList {
		return uint64(len(f.list))
	}
	return uint64(len(f.List(workers)))
}

// sizeSerialBelow is the frontier size under which Size sums on one goroutine.
const sizeSerialBelow = 1 << 16

// Size counts the frontier's vertices and sums their out-degrees
// (off[v+1] - off[v], off the out-adjacency's offsets) in parallel, from the
// list when the frontier has one and from its flags otherwise, without
// converting it.
func (f *Frontier) Size(off []uint64, workers int) (count, edges uint64) {
	if f.all && uint64(len(off)) > f.n {
		return f.n, off[f.n] - off[0] // every vertex: nothing to count
	}
	n := len(f.flags)
	if f.hasList {
		n = len(f.list)
	}
	parts := par.Workers(workers)
	if n < sizeSerialBelow {
		parts = 1
	}
	chunks := par.Split(n, parts)
	counts, sums := make([]uint64, len(chunks)), make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var k, e uint64
		if f.hasList {
			for _, v := range f.list[c.Lo:c.Hi] {
				e += off[v+1] - off[v]
			}
			k = uint64(c.Hi - c.Lo)
		} else {
			for v := c.Lo; v < c.Hi; v++ {
				if f.flags[v] != 0 {
					k++
					e += off[v+1] - off[v]
				}
			}
		}
		counts[c.Index], sums[c.Index] = k, e
	})
	for i := range chunks {
		count, edges = count+counts[i], edges+sums[i]
	}
	return count, edges
}

// MaxOutDegree returns the largest out-degree, off[v+1] - off[v], over the
// offsets off of an adjacency (0 when it has no vertices), in parallel.
func MaxOutDegree(off []uint64, workers int) uint64 {
	if len(off) < 2 {
		return 0
	}
	chunks := par.Split(len(off)-1, par.Workers(workers))
	maxes := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var m uint64
		for v := c.Lo; v < c.Hi; v++ {
			m = max(m, off[v+1]-off[v])
		}
		maxes[c.Index] = m
	})
	return slices.Max(maxes)
}

// List returns the active vertices in increasing id order when converted
// from flags (in the order given otherwise), converting if needed.
func (f *Frontier) List(workers int) []uint32 {
	if !f.hasList {
		f.list = FlagsToList(f.flags, workers)
		f.hasList = true
	}
	return f.list
}

// Flags returns one flag per vertex, converting if needed.
func (f *Frontier) Flags(workers int) []uint8 {
	if !f.hasFlag {
		f.flags = ListToFlags(f.n, f.list, workers)
		f.hasFlag = true
	}
	return f.flags
}

// FlagsToList collects the indices of non-zero flags in increasing order:
// each worker compacts its own range, then the pieces are concatenated (the
// CPU analogue of the GPU's warp-aggregated append). Flags are read 64 at a
// time into a bit mask (FlagMask) without a branch per flag or per word, so
// a frontier's random pattern costs one loop exit per 64 vertices, not a
// misprediction per nonzero word.
func FlagsToList(flags []uint8, workers int) []uint32 {
	chunks := par.Split(len(flags), par.Workers(workers))
	counts := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var k uint64
		i := c.Lo
		for ; i+64 <= c.Hi; i += 64 {
			k += uint64(bits.OnesCount64(FlagMask(flags[i : i+64])))
		}
		for ; i < c.Hi; i++ {
			if flags[i] != 0 {
				k++
			}
		}
		counts[c.Index] = k
	})
	total := par.ExclusiveScan(counts)
	list := make([]uint32, total)
	par.ForChunks(chunks, func(c par.Chunk) {
		p := counts[c.Index]
		i := c.Lo
		for ; i+64 <= c.Hi; i += 64 {
			for m := FlagMask(flags[i : i+64]); m != 0; m &= m - 1 {
				list[p] = uint32(i + bits.TrailingZeros64(m))
				p++
			}
		}
		for ; i < c.Hi; i++ {
			if flags[i] != 0 {
				list[p] = uint32(i)
				p++
			}
		}
	})
	return list
}

// FlagMask returns the 64 flags f[0:64] as a mask, bit k set when f[k] is
// nonzero, eight flags at a time without a branch per flag (a random
// pattern of flags would mispredict half of them).
func FlagMask(f []uint8) uint64 {
	_ = f[63]
	var m uint64
	for j := 0; j < 64; j += 8 {
		m |= packBytes(binary.LittleEndian.Uint64(f[j:])) << j
	}
	return m
}

// packBytes returns the 8 bits saying which bytes of x (eight flags read
// little-endian) are nonzero, byte k as bit k, without a branch.
func packBytes(x uint64) uint64 {
	return ((nonzeroBytes(x) >> 7) * 0x0102040810204080) >> 56
}

// nonzeroBytes returns a word with bit 8k+7 set for every nonzero byte k of
// w and every other bit clear (no carry crosses a byte: each byte's low
// seven bits plus 0x7f stay below 0x100).
func nonzeroBytes(w uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	return (((w & low7) + low7) | w) & high
}

// ListToFlags scatters a list of vertex ids into a flag array of n entries.
func ListToFlags(n uint64, list []uint32, workers int) []uint8 {
	flags := make([]uint8, n)
	par.For(len(list), workers, 1<<14, func(lo, hi int) {
		for _, v := range list[lo:hi] {
			flags[v] = 1
		}
	})
	return flags
}

// ListToFlagsInto is ListToFlags into flags, whose entries it clears first
// (in parallel), for callers that reuse one array.
func ListToFlagsInto(flags []uint8, list []uint32, workers int) {
	par.For(len(flags), workers, 1<<18, func(lo, hi int) { clear(flags[lo:hi]) })
	par.For(len(list), workers, 1<<14, func(lo, hi int) {
		for _, v := range list[lo:hi] {
			flags[v] = 1
		}
	})
}

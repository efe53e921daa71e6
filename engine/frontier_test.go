package engine

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFrontierSizeMatchesSerialSum: Size agrees with a serial count and
// degree sum, from a list and from flags, below and above the parallel
// threshold, and converts neither.
func TestFrontierSizeMatchesSerialSum(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 * sizeSerialBelow} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		off := make([]uint64, n+1)
		for v := 0; v < n; v++ {
			off[v+1] = off[v] + uint64(rng.IntN(50))
		}
		flags := make([]uint8, n)
		var list []uint32
		var wantCount, wantEdges uint64
		for v := 0; v < n; v++ {
			if rng.IntN(3) == 0 {
				flags[v] = 1
				list = append(list, uint32(v))
				wantCount++
				wantEdges += off[v+1] - off[v]
			}
		}
		for _, f := range []*Frontier{NewFrontierFlags(flags), NewFrontierList(uint64(n), list)} {
			wasList := f.IsList()
			for _, workers := range []int{1, 4} {
				count, edges := f.Size(off, workers)
				require.Equal(t, wantCount, count, "n=%d list=%v workers=%d", n, wasList, workers)
				require.Equal(t, wantEdges, edges, "n=%d list=%v workers=%d", n, wasList, workers)
			}
			require.Equal(t, wasList, f.IsList(), "Size converted the frontier")
		}
	}
}

// TestAllActiveSize: AllActive's Size is every vertex and every arc, without
// a scan, and the same as counting its flags.
func TestAllActiveSize(t *testing.T) {
	for _, n := range []int{0, 5, 3 * sizeSerialBelow} {
		off := make([]uint64, n+1)
		for v := 0; v < n; v++ {
			off[v+1] = off[v] + uint64(v%7)
		}
		count, edges := AllActive(uint64(n)).Size(off, 4)
		require.Equal(t, uint64(n), count)
		require.Equal(t, off[n], edges)
		wantCount, wantEdges := NewFrontierFlags(AllActive(uint64(n)).Flags(1)).Size(off, 4)
		require.Equal(t, wantCount, count)
		require.Equal(t, wantEdges, edges)
	}
}

// TestFlagsToListWords: the word-at-a-time scan finds every nonzero flag
// (any nonzero byte value, next to zero and nonzero neighbours, at chunk
// and word edges) in order, for several worker counts.
func TestFlagsToListWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 1000, 4099} {
		for _, density := range []int{0, 1, 10, 50, 100} {
			flags := make([]uint8, n)
			var want []uint32
			for i := range flags {
				if rng.IntN(100) < density {
					flags[i] = uint8(1 + rng.IntN(255))
					want = append(want, uint32(i))
				}
			}
			for _, w := range []int{1, 2, 3, 8} {
				got := FlagsToList(flags, w)
				if len(want) == 0 {
					require.Empty(t, got)
					continue
				}
				require.Equal(t, want, got, "n %d, density %d, %d workers", n, density, w)
			}
		}
	}
}

// TestPackBytes: every byte pattern (zero, one, a high bit, any other
// value) packs to the bit of each nonzero byte.
func TestPackBytes(t *testing.T) {
	for i := 0; i < 1000; i++ {
		var b [8]byte
		var want uint64
		for k := range b {
			switch (i >> k) & 3 {
			case 1:
				b[k] = 1
			case 2:
				b[k] = uint8(0x80 | i)
			case 3:
				b[k] = uint8(1 + i%255)
			}
			if b[k] != 0 {
				want |= 1 << k
			}
		}
		if got := packBytes(binary.LittleEndian.Uint64(b[:])); got != want {
			t.Fatalf("packBytes(%x) = %08b, want %08b", b, got, want)
		}
	}
}

package preprocess

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// TestRadixSortMatchesCountingSort checks that the two-level sort gives
// the single-level sort's offsets and stable order, for several bucket
// widths, part counts and key ranges (skewed keys make uneven buckets).
func TestRadixSortMatchesCountingSort(t *testing.T) {
	ctx := context.Background()
	for _, k := range []uint64{1, 2, 7, 64, 1000, 4099} {
		for _, weighted := range []bool{false, true} {
			for _, parts := range []int{1, 3} {
				for _, shift := range []uint{0, 1, 3, 6, 20} {
					t.Run(fmt.Sprintf("k%d-w%v-p%d-s%d", k, weighted, parts, shift), func(t *testing.T) {
						rng := rand.New(rand.NewPCG(k, uint64(shift)))
						m := 5000
						key := make([]uint32, m)
						for i := range key {
							if rng.IntN(3) == 0 {
								key[i] = uint32(rng.Uint64N(min(k, 3)))
							} else {
								key[i] = uint32(rng.Uint64N(k))
							}
						}
						chunks := par.Split(m, parts)
						count := func(p int, cnt []uint64) {
							for _, x := range key[chunks[p].Lo:chunks[p].Hi] {
								cnt[x]++
							}
						}
						want := make([]uint32, m)
						var wantW, gotW []uint32
						if weighted {
							wantW, gotW = make([]uint32, m), make([]uint32, m)
						}
						wantOff, err := countingSort(ctx, k, len(chunks), 2, count, func(p int, pos []uint64) {
							for i := chunks[p].Lo; i < chunks[p].Hi; i++ {
								q := pos[key[i]]
								pos[key[i]] = q + 1
								want[q] = uint32(i)
								if weighted {
									wantW[q] = uint32(i) * 7
								}
							}
						})
						require.NoError(t, err)
						scatter := func(keys, got, gotW []uint32) func(p int, bpos []uint64, s uint) {
							return func(p int, bpos []uint64, s uint) {
								for i := chunks[p].Lo; i < chunks[p].Hi; i++ {
									bk := key[i] >> s
									q := bpos[bk]
									bpos[bk] = q + 1
									keys[q] = key[i]
									got[q] = uint32(i)
									if gotW != nil {
										gotW[q] = uint32(i) * 7
									}
								}
							}
						}
						got, keys := make([]uint32, m), make([]uint32, m)
						if weighted {
							gotW = make([]uint32, m)
						}
						gotOff, err := radixSort(ctx, k, shift, len(chunks), 2, keys, got, gotW, count, scatter(keys, got, gotW))
						require.NoError(t, err)
						assert.Equal(t, wantOff, gotOff)
						assert.Equal(t, want, got)
						assert.Equal(t, wantW, gotW)
						// The same with the offsets known in advance.
						countBuckets := func(p int, bc []uint64, s uint) {
							for _, x := range key[chunks[p].Lo:chunks[p].Hi] {
								bc[x>>s]++
							}
						}
						got = make([]uint32, m)
						if weighted {
							gotW = make([]uint32, m)
						}
						require.NoError(t, radixSortKnown(ctx, wantOff, shift, len(chunks), 2, keys, got, gotW, countBuckets, scatter(keys, got, gotW)))
						assert.Equal(t, want, got)
						assert.Equal(t, wantW, gotW)
						// Offsets that disagree with the items are an error.
						if k > 1 {
							bad := slices.Clone(wantOff)
							for i := 1; i < len(bad)-1; i++ {
								bad[i] = 0
							}
							bad[len(bad)-1]++
							err := radixSortKnown(ctx, bad, shift, len(chunks), 2, keys, got, gotW, countBuckets, scatter(keys, got, gotW))
							assert.ErrorContains(t, err, "internal error")
						}
					})
				}
			}
		}
	}
}

func TestRadixShift(t *testing.T) {
	assert.Equal(t, uint(0), radixShift(1))
	assert.Equal(t, uint(0), radixShift(1<<radixBucketBits))
	assert.Equal(t, uint(1), radixShift(1<<radixBucketBits+1))
	assert.Equal(t, uint(11), radixShift(1<<22))
	for _, k := range []uint64{radixMinKeys, 1<<22 + 5, 1 << 32} {
		assert.LessOrEqual(t, (k-1)>>radixShift(k), uint64(1)<<radixBucketBits-1, "k=%d", k)
	}
}

// TestBuildTwoLevelSort builds graphs with enough vertices to take the
// two-level sort path, checks them against the input and checks that the
// worker count does not change them.
func TestBuildTwoLevelSort(t *testing.T) {
	if testing.Short() {
		t.Skip("medium graphs; skipped with -short")
	}
	n := uint64(radixMinKeys + 3000)
	for _, weighted := range []bool{false, true} {
		el := randomGraph(11, n, int(n)*4, weighted)
		p := layout.DefaultParams()
		l1 := build(t, el, p, 1)
		require.NoError(t, layout.Validate(l1, el))
		l3 := build(t, el, p, 3)
		assert.Equal(t, l1, l3)
	}
}

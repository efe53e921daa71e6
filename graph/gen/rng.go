package gen

import "github.com/mgraph-dev/mgraph/internal/mix"

// golden is 2^64 divided by the golden ratio, SplitMix64's increment.
const golden = mix.Golden

// Stream constants keep the generators' random streams apart for one seed.
const (
	streamRMAT     = 0x726d6174 // "rmat"
	streamScramble = 0x7363726d // "scrm"
	streamUniform  = 0x756e6966 // "unif"
	streamRGG      = 0x72676770 // "rggp"
	streamGrid     = 0x67726964 // "grid"
)

// splitMix is a SplitMix64 generator: a Weyl sequence passed through mix64.
// It is small, fast and passes BigCrush; one is created per block of work.
type splitMix struct{ s uint64 }

// next returns the next 64 random bits.
func (r *splitMix) next() uint64 {
	r.s += golden
	return mix.Mix64(r.s)
}

// blockRNG returns the generator for block b of the stream of one generator
// kind under seed: it depends on (seed, stream, b) only.
func blockRNG(seed, stream uint64, b int) splitMix {
	return splitMix{mix.Mix64(mix.Mix64(seed^stream*golden) + uint64(b)*golden)}
}

// unitFloat maps 64 random bits to a float64 uniform in [0, 1) (53 bits).
func unitFloat(r uint64) float64 { return float64(r>>11) * 0x1p-53 }

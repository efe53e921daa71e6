// Package mix holds SplitMix64's output function, the 64-bit hash the
// generators, the random weights, the file checks and the random
// partitioner draw their bits from.
package mix

// Golden is SplitMix64's increment, 2^64 divided by the golden ratio.
const Golden = 0x9e3779b97f4a7c15

// Mix64 is SplitMix64's output function: a bijective, well-distributed
// hash of z.
func Mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Hash64 is SplitMix64's step from state x: Mix64(x + Golden).
func Hash64(x uint64) uint64 { return Mix64(x + Golden) }

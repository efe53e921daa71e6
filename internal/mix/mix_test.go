package mix

import "testing"

// TestSplitMix64: the first outputs of SplitMix64 seeded with 0 and with
// 1234567 are the reference implementation's.
func TestSplitMix64(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}},
		{1234567, []uint64{0x599ed017fb08fc85, 0x2c73f08458540fa5, 0x883ebce5a3f27c77}},
	} {
		s := c.seed
		for i, w := range c.want {
			got := Hash64(s)
			s += Golden
			if got != w {
				t.Errorf("seed %d, output %d: %#x, want %#x", c.seed, i, got, w)
			}
		}
	}
}

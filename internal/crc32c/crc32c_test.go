package crc32c

import (
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCRC32Combine(t *testing.T) {
	data := make([]byte, 20<<20+12345)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	want := crc32.Checksum(data, castagnoli)
	assert.Equal(t, want, Checksum(data, 3))
	assert.Equal(t, want, Checksum(data, 8))
	for _, cut := range []int{0, 1, 4096, len(data) - 1, len(data)} {
		a := crc32.Checksum(data[:cut], castagnoli)
		b := crc32.Checksum(data[cut:], castagnoli)
		assert.Equal(t, want, Combine(a, b, uint64(len(data)-cut)), cut)
	}
}

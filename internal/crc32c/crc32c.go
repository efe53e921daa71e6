// Package crc32c computes CRC-32C (Castagnoli) checksums of large buffers
// on all cores: the buffer is cut into pieces checksummed in parallel, and
// the pieces' checksums are combined (zlib's crc32_combine). The result is
// the plain CRC-32C of the whole buffer.
package crc32c

import (
	"hash/crc32"

	"github.com/mgraph-dev/mgraph/internal/par"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of b, computed in parallel pieces (workers
// goroutines, 0 = all cores) combined with Combine.
func Checksum(b []byte, workers int) uint32 {
	const piece = 4 << 20
	workers = par.Workers(workers)
	if workers == 1 || len(b) < 2*piece {
		return crc32.Checksum(b, castagnoli)
	}
	chunks := par.Split(len(b), min(workers*4, len(b)/piece))
	crcs := make([]uint32, len(chunks))
	par.Dynamic(len(chunks), workers, 1, func(i int) {
		c := chunks[i]
		crcs[i] = crc32.Checksum(b[c.Lo:c.Hi], castagnoli)
	})
	crc := crcs[0]
	for i := 1; i < len(chunks); i++ {
		crc = Combine(crc, crcs[i], uint64(chunks[i].Hi-chunks[i].Lo))
	}
	return crc
}

// crc32Combine returns the CRC-32C of A‖B from crcA, crcB and len(B)
// (zlib's crc32_combine, for the reflected Castagnoli polynomial).
func Combine(crcA, crcB uint32, lenB uint64) uint32 {
	if lenB == 0 {
		return crcA
	}
	var even, odd [32]uint32
	odd[0] = crc32.Castagnoli // the reflected polynomial: one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four zero bits
	for {
		gf2Square(&even, &odd) // one zero byte, then 4, 16, ...
		if lenB&1 != 0 {
			crcA = gf2Times(&even, crcA)
		}
		lenB >>= 1
		if lenB == 0 {
			break
		}
		gf2Square(&odd, &even)
		if lenB&1 != 0 {
			crcA = gf2Times(&odd, crcA)
		}
		lenB >>= 1
		if lenB == 0 {
			break
		}
	}
	return crcA ^ crcB
}

func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat *[32]uint32) {
	for n := range 32 {
		square[n] = gf2Times(mat, mat[n])
	}
}

// Package readn reads a length that a file's header declares without
// trusting it: the buffer grows as the data arrives, so a corrupt size
// cannot force an allocation beyond what the reader holds.
package readn

import (
	"errors"
	"io"
)

// step is the most the buffer grows ahead of the data read.
const step = 16 << 20

// Read reads exactly n bytes from r. A reader that ends early gives the
// bytes it had and io.ErrUnexpectedEOF; another failure, its error.
func Read(r io.Reader, n uint64) ([]byte, error) {
	buf := make([]byte, 0, min(n, step))
	for uint64(len(buf)) < n {
		want := min(n-uint64(len(buf)), step)
		if uint64(cap(buf)-len(buf)) < want {
			nb := make([]byte, len(buf), min(n, uint64(len(buf))*2+want))
			copy(nb, buf)
			buf = nb
		}
		k, err := io.ReadFull(r, buf[len(buf):len(buf)+int(want)])
		buf = buf[:len(buf)+k]
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return buf, io.ErrUnexpectedEOF
			}
			return buf, err
		}
	}
	return buf, nil
}

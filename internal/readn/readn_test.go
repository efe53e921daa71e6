package readn

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRead(t *testing.T) {
	data := bytes.Repeat([]byte("abc"), 3*step/2)
	got, err := Read(bytes.NewReader(data), uint64(len(data)))
	require.NoError(t, err)
	require.Equal(t, data, got)
	got, err = Read(bytes.NewReader(data[:100]), 1<<40) // a lying size
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.Equal(t, data[:100], got)
	require.LessOrEqual(t, cap(got), step, "grew beyond the data")
	bad := errors.New("disk on fire")
	_, err = Read(io.MultiReader(bytes.NewReader(data[:10]), iotest(bad)), 20)
	require.ErrorIs(t, err, bad)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func iotest(err error) io.Reader { return errReader{err} }

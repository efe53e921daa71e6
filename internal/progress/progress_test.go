package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNilMeterIsSilent(t *testing.T) {
	var m *Meter
	m.Add(5)
	m.SetTotal(10)
	m.Done()
	assert.Nil(t, New(&bytes.Buffer{}, "x", 0, "B"), "a buffer is no terminal")
}

func TestMeterDrawsFinalLine(t *testing.T) {
	var buf bytes.Buffer
	m := NewAlways(&buf, "reading g.mtx", 2048, "B")
	m.Add(1024)
	m.Add(1024)
	m.Done()
	out := buf.String()
	assert.True(t, strings.HasSuffix(out, "\n"))
	assert.Contains(t, out, "reading g.mtx: 2.0 KiB / 2.0 KiB (100%)")
}

func TestQuantity(t *testing.T) {
	assert.Equal(t, "512 B", Quantity(512, "B"))
	assert.Equal(t, "1.5 MiB", Quantity(1.5*1024*1024, "B"))
	assert.Equal(t, "2.5 Medges", Quantity(2.5e6, "edges"))
}

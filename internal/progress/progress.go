// Package progress prints progress lines for long operations (reading,
// generating, preprocessing, benchmarking) to a terminal.
//
// A Meter counts work done against an optional total and redraws one line on
// its writer at most a few times a second: done, rate and, when the total is
// known, percentage and ETA. When the writer is not a terminal the meter
// stays silent, so logs and pipes see only the final summaries the commands
// print themselves. A nil *Meter is valid and does nothing, so library code
// can take one as an optional argument.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// redrawInterval is the least time between two redraws of the progress line.
const redrawInterval = 200 * time.Millisecond

// Meter reports the progress of one operation. Add may be called from many
// goroutines at once.
type Meter struct {
	w     io.Writer
	label string
	unit  string
	total int64
	start time.Time
	done  atomic.Int64

	mu       sync.Mutex
	lastDraw time.Time
	drawn    bool
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// New returns a meter that draws on w when w is a terminal and returns nil
// (a silent meter) otherwise. total may be 0 when unknown; unit names what is
// counted ("B" for bytes, which are shown in binary multiples, or "edges").
func New(w io.Writer, label string, total int64, unit string) *Meter {
	if w == nil || !IsTerminal(w) {
		return nil
	}
	return NewAlways(w, label, total, unit)
}

// NewAlways is New without the terminal check, for tests and for callers that
// want progress lines in a log.
func NewAlways(w io.Writer, label string, total int64, unit string) *Meter {
	return &Meter{w: w, label: label, unit: unit, total: total, start: time.Now()}
}

// SetTotal changes the expected total (for example once a header is read).
func (m *Meter) SetTotal(total int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.total = total
	m.mu.Unlock()
}

// Add records n more units done and redraws the line if enough time passed.
func (m *Meter) Add(n int64) {
	if m == nil {
		return
	}
	m.done.Add(n)
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.lastDraw) < redrawInterval {
		return
	}
	m.lastDraw = now
	m.draw(now, false)
}

// Done draws the final state and ends the line.
func (m *Meter) Done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.draw(time.Now(), true)
}

func (m *Meter) draw(now time.Time, final bool) {
	done := m.done.Load()
	elapsed := now.Sub(m.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed
	}
	line := fmt.Sprintf("%s: %s", m.label, Quantity(float64(done), m.unit))
	if m.total > 0 {
		pct := 100 * float64(done) / float64(m.total)
		line += fmt.Sprintf(" / %s (%.0f%%)", Quantity(float64(m.total), m.unit), pct)
	}
	line += fmt.Sprintf(", %s/s", Quantity(rate, m.unit))
	if m.total > 0 && rate > 0 && !final && done < m.total {
		eta := time.Duration(float64(m.total-done) / rate * float64(time.Second))
		line += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
	}
	if final {
		line += fmt.Sprintf(", %.1fs", elapsed)
	}
	end := ""
	if final {
		end = "\n"
	}
	fmt.Fprintf(m.w, "\r\033[K%s%s", line, end)
	m.drawn = true
}

// Quantity formats v with a unit: bytes ("B") in KiB/MiB/GiB, anything else
// with k/M/G decimal prefixes.
func Quantity(v float64, unit string) string {
	base, prefixes := 1000.0, []string{"", "k", "M", "G", "T"}
	if unit == "B" {
		base, prefixes = 1024.0, []string{"", "Ki", "Mi", "Gi", "Ti"}
	}
	i := 0
	for v >= base && i < len(prefixes)-1 {
		v /= base
		i++
	}
	sep := " "
	if i == 0 {
		return fmt.Sprintf("%.0f%s%s", v, sep, unit)
	}
	return fmt.Sprintf("%.1f%s%s%s", v, sep, prefixes[i], unit)
}

package par

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTeam: Run calls every fn(w) once per call, whether the helpers are
// spinning (calls in quick succession), started afresh (after they have
// exited) or too few (more calls than workers); RunShared's pieces are all
// taken once; and the helpers exit once idle.
func TestTeam(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 5} {
		tm := NewTeam(workers)
		require.Equal(t, workers, tm.Workers())
		for round := range 200 {
			k := 1 + round%(workers+2)
			var calls [8]atomic.Int32
			tm.Run(k, func(w int) { calls[w].Add(1) })
			for w := range calls {
				want := int32(0)
				if w < k {
					want = 1
				}
				require.Equal(t, want, calls[w].Load(), "workers %d round %d k %d w %d", workers, round, k, w)
			}
			const pieces = 1000
			var taken atomic.Int64
			var seen [pieces]atomic.Int32
			var began atomic.Int32
			tm.RunShared(min(k, workers), func(int) {
				began.Add(1)
				for {
					c := taken.Add(1) - 1
					if c >= pieces {
						return
					}
					seen[c].Add(1)
				}
			})
			for i := range seen {
				require.Equal(t, int32(1), seen[i].Load(), "piece %d", i)
			}
			require.GreaterOrEqual(t, began.Load(), int32(1))
			if round%50 == 49 {
				time.Sleep(2 * tm.spin) // the helpers exit; the next run starts them again
			}
		}
		time.Sleep(2 * tm.spin)
		for i := range tm.slots {
			require.Eventually(t, func() bool { return tm.slots[i].state.Load() == slotDead },
				time.Second, time.Millisecond, "workers %d: helper %d still alive", workers, i+1)
		}
	}
	runtime.GC()
}

// TestTeamWorkers: NewTeam(0) has GOMAXPROCS workers, and a Team of more
// workers than GOMAXPROCS does not spin, yet runs every call.
func TestTeamWorkers(t *testing.T) {
	require.Equal(t, runtime.GOMAXPROCS(0), NewTeam(0).Workers())
	over := NewTeam(runtime.GOMAXPROCS(0) + 3)
	require.Zero(t, over.spin)
	require.Zero(t, over.yield)
	var sum atomic.Int64
	for range 100 {
		over.Run(over.Workers(), func(w int) { sum.Add(int64(w)) })
	}
	k := int64(over.Workers())
	require.Equal(t, 100*k*(k-1)/2, sum.Load())
}

// BenchmarkTeamRun times one fork and join of a Team's workers (the
// barrier of a level-synchronous loop) with empty tasks.
func BenchmarkTeamRun(b *testing.B) {
	tm := NewTeam(runtime.GOMAXPROCS(0))
	var n atomic.Int64
	for b.Loop() {
		tm.Run(tm.Workers(), func(int) { n.Add(1) })
	}
}

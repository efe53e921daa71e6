package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// NCCL, the collectives library, does the communication of partitioned
// runs on several GPUs. It is loaded at run time, so that a build and a
// machine without it work; OpenNCCL finds it.

// NCCLEnv names the environment variable that gives libnccl.so's path.
const NCCLEnv = "MGRAPH_NCCL"

// ncclCandidates are where OpenNCCL looks, in order: $MGRAPH_NCCL, the
// library search path, and the copies Python's nvidia-nccl packages
// install (pip's nvidia-nccl-cu11/cu12).
func ncclCandidates() []string {
	var c []string
	if p := os.Getenv(NCCLEnv); p != "" {
		c = append(c, p)
	}
	c = append(c, "libnccl.so.2", "libnccl.so")
	home, _ := os.UserHomeDir()
	for _, pattern := range []string{
		"/usr/local/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so*",
		"/usr/local/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so*",
		"/usr/lib/python3*/dist-packages/nvidia/nccl/lib/libnccl.so*",
		"/usr/lib/python3/dist-packages/nvidia/nccl/lib/libnccl.so*",
		filepath.Join(home, ".local/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so*"),
		"/opt/conda/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so*",
	} {
		m, _ := filepath.Glob(pattern)
		c = append(c, m...)
	}
	return c
}

// OpenNCCL loads NCCL (once per process) and returns its version (e.g.
// 22703 for 2.27.3). Without it, the error lists where it looked.
func OpenNCCL() (int, error) {
	var tried []string
	for _, p := range ncclCandidates() {
		v, err := backendNCCLOpen(p)
		if err == nil {
			return v, nil
		}
		if errors.Is(err, ErrNoCUDA) {
			return 0, err
		}
		tried = append(tried, err.Error())
	}
	return 0, fmt.Errorf("cuda: NCCL not found (set %s to libnccl.so's path): %s", NCCLEnv, strings.Join(tried, "; "))
}

// ErrNCCLAborted is the error of a collective on an NCCL rank that was
// aborted (NCCLRank.Abort), or that an abort stopped while it waited: its
// communicator is gone, and the clique must be made again.
var ErrNCCLAborted = errors.New("cuda: the NCCL communicator was aborted (a run over it stopped early); make a new one")

// NCCLRank is one rank of a clique of GPUs in this process: its NCCL
// communicator, a stream, and the device buffers its exchanges go through
// (grown as needed). Its methods are collective: every rank of the clique
// makes the matching call (from its own goroutine), and none returns
// before all have, unless the rank is aborted (Abort, from any goroutine).
// A rank is driven by one goroutine at a time.
type NCCLRank struct {
	comm        unsafe.Pointer
	dev         Device
	rank, ranks int
	stream      *Stream
	send, recv  *Buffer[byte]
	words       *Buffer[uint64] // counts out and in (2·ranks), and a sum's two words
	// mu orders queueing work on comm against Abort (which frees comm);
	// the wait for the queued work happens outside it, so that Abort can
	// stop a rank waiting for peers that will never join. comm is never
	// used once aborted is set.
	mu      sync.Mutex
	aborted atomic.Bool
}

// NewNCCLRanks loads NCCL and makes one rank per device of devices (rank i
// on devices[i]; each device once).
func NewNCCLRanks(devices []int) ([]*NCCLRank, error) {
	if _, err := OpenNCCL(); err != nil {
		return nil, err
	}
	comms, err := backendNCCLInitAll(devices)
	if err != nil {
		return nil, err
	}
	ranks := make([]*NCCLRank, len(devices))
	fail := func(err error) ([]*NCCLRank, error) {
		for i, r := range ranks {
			if r != nil {
				r.Close()
			} else {
				backendNCCLDestroy(comms[i])
			}
		}
		return nil, err
	}
	for i, dev := range devices {
		d, err := GetDevice(dev)
		if err != nil {
			return fail(err)
		}
		r := &NCCLRank{comm: comms[i], dev: d, rank: i, ranks: len(devices)}
		ranks[i] = r
		if r.stream, err = d.NewStream(); err != nil {
			return fail(err)
		}
		if r.words, err = Alloc[uint64](d, 2*len(devices)+2); err != nil {
			return fail(err)
		}
	}
	return ranks, nil
}

// Rank returns the rank's number; Ranks the clique's size.
func (r *NCCLRank) Rank() int  { return r.rank }
func (r *NCCLRank) Ranks() int { return r.ranks }

// Device returns the rank's GPU.
func (r *NCCLRank) Device() Device { return r.dev }

// grow makes *b hold at least n bytes.
func (r *NCCLRank) grow(b **Buffer[byte], n uint64) error {
	if err := growBuffer(r.dev, b, n); err != nil {
		return fmt.Errorf("nccl rank %d: exchange buffer of %s: %w", r.rank, FormatBytes(n), err)
	}
	return nil
}

// AllToAll sends send[q] (host bytes) to every other rank q and returns
// what each rank sent to this one (got[rank] is empty): the sizes go
// first (agreeSizes), then the bytes, through the rank's device buffers.
func (r *NCCLRank) AllToAll(send [][]byte) ([][]byte, error) {
	n := r.ranks
	if len(send) != n {
		return nil, invalidf("NCCLRank.AllToAll", "rank %d sends to %d ranks of %d", r.rank, len(send), n)
	}
	sendOff, sendBytes := make([]uint64, n), make([]uint64, n)
	var st uint64
	for q := range send {
		if q != r.rank {
			sendOff[q], sendBytes[q], st = st, uint64(len(send[q])), st+uint64(len(send[q]))
		}
	}
	recvBytes, err := r.agreeSizes(sendBytes)
	if err != nil {
		return nil, err
	}
	recvOff := make([]uint64, n)
	var rt uint64
	for q := range recvBytes {
		recvOff[q], rt = rt, rt+recvBytes[q]
	}
	if err := r.grow(&r.send, st); err != nil {
		return nil, err
	}
	if err := r.grow(&r.recv, rt); err != nil {
		return nil, err
	}
	packed := make([]byte, st)
	for q := range send {
		if q != r.rank {
			copy(packed[sendOff[q]:], send[q])
		}
	}
	if st > 0 {
		if err := r.send.CopyFromHost(packed); err != nil {
			return nil, err
		}
	}
	if err := r.exchange(r.send.h.p, sendOff, sendBytes, r.recv.h.p, recvOff, recvBytes, nil); err != nil {
		return nil, err
	}
	all := make([]byte, rt)
	if rt > 0 {
		if err := r.recv.CopyToHostAt(0, all); err != nil {
			return nil, err
		}
	}
	got := make([][]byte, n)
	for q := range got {
		got[q] = all[recvOff[q] : recvOff[q]+recvBytes[q]]
	}
	return got, nil
}

// agreeSizes sends every other rank q the size of what this rank will
// send it, sendBytes[q], and returns the sizes each rank will send this
// one (0 for itself): one NCCL exchange of a word per rank, collective.
func (r *NCCLRank) agreeSizes(sendBytes []uint64) ([]uint64, error) {
	n := r.ranks
	counts := make([]uint64, 2*n)
	word, off := make([]uint64, n), make([]uint64, n)
	for q := range n {
		if q != r.rank {
			counts[q], word[q] = sendBytes[q], 8
		}
		off[q] = uint64(q) * 8
	}
	if err := r.words.CopyFromHost(counts); err != nil {
		return nil, err
	}
	base := unsafe.Pointer(r.words.h.p)
	if err := r.exchange(base, off, word, unsafe.Add(base, 8*n), off, word, nil); err != nil {
		return nil, err
	}
	if err := r.words.CopyToHost(counts); err != nil {
		return nil, err
	}
	recv := counts[n:]
	recv[r.rank] = 0
	return recv, nil
}

// exchange runs one grouped NCCL send/receive on the rank's stream.
func (r *NCCLRank) exchange(send unsafe.Pointer, sendOff, sendBytes []uint64, recv unsafe.Pointer, recvOff, recvBytes []uint64,
	while func() error) error {
	return r.collectiveWhile("NCCLRank.exchange", func(comm, s unsafe.Pointer) error {
		return backendNCCLExchange(r.dev.ordinal, comm, r.ranks, r.rank, send, sendOff, sendBytes, recv, recvOff, recvBytes, s)
	}, while)
}

// collective queues one NCCL call (queue, given the communicator and the
// rank's stream) and waits for the stream. An aborted rank queues nothing;
// a wait that an abort ended (NCCL's kernels stop early: what they moved
// is incomplete) returns ErrNCCLAborted too.
func (r *NCCLRank) collective(what string, queue func(comm, stream unsafe.Pointer) error) error {
	return r.collectiveWhile(what, queue, nil)
}

// collectiveWhile is collective that, with while, calls while once the
// NCCL call is queued and before waiting for it: work while queues on
// other streams (not the rank's, not the device's default one) runs as the
// data moves. The stream is waited for even when while fails; while's
// error comes first.
func (r *NCCLRank) collectiveWhile(what string, queue func(comm, stream unsafe.Pointer) error, while func() error) error {
	sp, err := r.stream.get(what, r.dev.ordinal)
	if err != nil {
		return err
	}
	defer r.stream.put()
	r.mu.Lock()
	if r.aborted.Load() {
		r.mu.Unlock()
		return fmt.Errorf("%s: rank %d: %w", what, r.rank, ErrNCCLAborted)
	}
	err = queue(r.comm, sp)
	r.mu.Unlock()
	if err == nil {
		var werr error
		if while != nil {
			werr = while()
		}
		err = backendStreamSync(r.dev.ordinal, sp)
		if werr != nil {
			err = werr
		}
	}
	if r.aborted.Load() {
		return fmt.Errorf("%s: rank %d: %w", what, r.rank, ErrNCCLAborted)
	}
	return err
}

// allReduceSum queues recv[0..count) = the sum over the ranks of
// send[0..count) (device memory: uint64 words, or doubles with f64) and
// waits for it (collective).
func (r *NCCLRank) allReduceSum(what string, send, recv unsafe.Pointer, count uint64, f64 bool) error {
	return r.collective(what, func(comm, s unsafe.Pointer) error {
		if f64 {
			return backendNCCLAllReduceSumF64(r.dev.ordinal, comm, send, recv, count, s)
		}
		return backendNCCLAllReduceSum(r.dev.ordinal, comm, send, recv, count, s)
	})
}

// abortLockWait is how long Abort waits for a goroutine that is queueing
// work on the rank: longer, it is blocked inside NCCL (a first collective
// connects to its peers there), which only the abort ends.
const abortLockWait = time.Second

// Abort aborts the rank's communicator (ncclCommAbort): a collective
// waiting for peers returns ErrNCCLAborted, and so does every later one.
// Safe to call from any goroutine, and more than once. Every rank of a
// clique must be aborted (or closed) before the clique's GPUs are used by
// another one. It first waits (up to abortLockWait) for a goroutine that
// is queueing work on the rank, so that the communicator is not freed
// under a call about to use it.
func (r *NCCLRank) Abort() error {
	if r.aborted.Swap(true) {
		return nil
	}
	deadline := time.Now().Add(abortLockWait)
	for !r.mu.TryLock() {
		if time.Now().After(deadline) {
			return r.abortComm() // the queueing goroutine waits inside NCCL
		}
		time.Sleep(time.Millisecond)
	}
	defer r.mu.Unlock()
	return r.abortComm()
}

// abortComm frees the communicator by aborting it (once: Abort's flag).
func (r *NCCLRank) abortComm() error {
	if err := backendNCCLAbort(r.comm); err != nil {
		return fmt.Errorf("nccl rank %d: %w", r.rank, err)
	}
	return nil
}

// AllReduceSum returns the sum of x over the clique's ranks.
func (r *NCCLRank) AllReduceSum(x uint64) (uint64, error) {
	n := r.ranks
	if err := r.words.CopyFromHostAt(2*n, []uint64{x}); err != nil {
		return 0, err
	}
	base := unsafe.Pointer(r.words.h.p)
	if err := r.allReduceSum("NCCLRank.AllReduceSum", unsafe.Add(base, 8*2*n), unsafe.Add(base, 8*(2*n+1)), 1, false); err != nil {
		return 0, err
	}
	out := make([]uint64, 1)
	if err := r.words.CopyToHostAt(2*n+1, out); err != nil {
		return 0, err
	}
	return out[0], nil
}

// Close destroys the communicator (unless Abort freed it) and frees the
// rank's buffers and stream.
func (r *NCCLRank) Close() error {
	var errs []error
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.comm != nil && !r.aborted.Swap(true) { // an aborted communicator is freed already
		errs = append(errs, backendNCCLDestroy(r.comm))
		r.comm = nil
	}
	for _, b := range []**Buffer[byte]{&r.send, &r.recv} {
		if *b != nil {
			errs = append(errs, (*b).Free())
			*b = nil
		}
	}
	if r.words != nil {
		errs = append(errs, r.words.Free())
		r.words = nil
	}
	if r.stream != nil {
		errs = append(errs, r.stream.Destroy())
		r.stream = nil
	}
	return errors.Join(errs...)
}

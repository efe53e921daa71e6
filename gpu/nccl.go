package gpu

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/partition"
)

// NCCLExchanger is partition.Exchanger over NCCL: one communicator rank per
// GPU of the run (rank i on the GPU of part i; runs that succeeded may
// share one, a run that stopped early aborts it: Abort), the updates of a superstep
// moved between the GPUs by NCCL's grouped sends and receives (their
// counts first), the frontier sizes summed by NCCL's all-reduce. The
// packaging and unpackaging stay on the host (partition.Run's), so each
// exchange copies the messages to the device and back. NCCL is loaded at
// run time (cuda.OpenNCCL).
type NCCLExchanger struct {
	ranks []*cuda.NCCLRank
}

var _ partition.Exchanger = (*NCCLExchanger)(nil)

// A Message travels as its bytes.
var (
	_ [unsafe.Sizeof(partition.Message{}) - partition.MessageBytes]struct{}
	_ [partition.MessageBytes - unsafe.Sizeof(partition.Message{})]struct{}
)

// NewNCCLExchanger returns an exchanger whose rank i runs on CUDA device
// devices[i] (each device once: NCCL takes one rank per GPU).
func NewNCCLExchanger(devices []int) (*NCCLExchanger, error) {
	seen := map[int]bool{}
	for _, d := range devices {
		if seen[d] {
			return nil, fmt.Errorf("nccl exchanger: device %d twice (NCCL takes one rank per GPU)", d)
		}
		seen[d] = true
	}
	ranks, err := cuda.NewNCCLRanks(devices)
	if err != nil {
		return nil, fmt.Errorf("nccl exchanger: %w", err)
	}
	return &NCCLExchanger{ranks: ranks}, nil
}

// Parts returns the number of ranks.
func (x *NCCLExchanger) Parts() int { return len(x.ranks) }

func (x *NCCLExchanger) rank(rank int) (*cuda.NCCLRank, error) {
	if rank < 0 || rank >= len(x.ranks) {
		return nil, fmt.Errorf("nccl exchanger: rank %d of %d", rank, len(x.ranks))
	}
	return x.ranks[rank], nil
}

// AllToAll implements partition.Exchanger. NCCL's calls cannot be
// cancelled: ctx is checked before them.
func (x *NCCLExchanger) AllToAll(ctx context.Context, rank int, send [][]partition.Message) ([]partition.Message, error) {
	r, err := x.rank(rank)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("exchange: rank %d: %w", rank, err)
	}
	bytes := make([][]byte, len(send))
	for q, m := range send {
		if q != rank && len(m) > 0 {
			bytes[q] = unsafe.Slice((*byte)(unsafe.Pointer(&m[0])), len(m)*partition.MessageBytes)
		}
	}
	got, err := r.AllToAll(bytes)
	if err != nil {
		return nil, fmt.Errorf("exchange: rank %d: %w", rank, err)
	}
	total := 0
	for _, b := range got {
		if len(b)%partition.MessageBytes != 0 {
			return nil, fmt.Errorf("exchange: rank %d received %d bytes, not whole messages", rank, len(b))
		}
		total += len(b) / partition.MessageBytes
	}
	recv := make([]partition.Message, 0, total)
	for _, b := range got {
		if len(b) > 0 {
			recv = append(recv, unsafe.Slice((*partition.Message)(unsafe.Pointer(&b[0])), len(b)/partition.MessageBytes)...)
		}
	}
	return recv, nil
}

// AllReduceSum implements partition.Exchanger.
func (x *NCCLExchanger) AllReduceSum(ctx context.Context, rank int, v uint64) (uint64, error) {
	r, err := x.rank(rank)
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("all-reduce: rank %d: %w", rank, err)
	}
	s, err := r.AllReduceSum(v)
	if err != nil {
		return 0, fmt.Errorf("all-reduce: rank %d: %w", rank, err)
	}
	return s, nil
}

// Abort aborts every rank's communicator (cuda.NCCLRank.Abort): a rank
// waiting in a collective returns cuda.ErrNCCLAborted, and so does every
// later call. partition's runs abort their exchanger when a part fails or
// the run is cancelled (partition.Aborter), so that the other parts do not
// wait forever for it; the exchanger is then spent: make a new one.
func (x *NCCLExchanger) Abort() error {
	var errs []error
	for _, r := range x.ranks {
		errs = append(errs, r.Abort())
	}
	return errors.Join(errs...)
}

var _ partition.Aborter = (*NCCLExchanger)(nil)

// Close destroys the communicators and frees their buffers.
func (x *NCCLExchanger) Close() error {
	var errs []error
	for _, r := range x.ranks {
		errs = append(errs, r.Close())
	}
	x.ranks = nil
	return errors.Join(errs...)
}

package gpu

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/partition"
)

var _ partition.MSFDevice = (*Backend)(nil)

// msfRounds is partition.MSFRounds on a Backend: the part's scan state on
// its GPU (cuda.PartMSF). It holds the backend's lock until Close.
type msfRounds struct {
	b  *Backend
	pm *cuda.PartMSF
}

// MSFPart implements partition.MSFDevice.
func (b *Backend) MSFPart(pt *partition.Part, orig []uint32) (partition.MSFRounds, error) {
	b.mu.Lock()
	if uint64(len(b.l.Perm)) < pt.NumLocal {
		b.mu.Unlock()
		return nil, fmt.Errorf("cuda backend: a layout of %d vertices for %d owned", len(b.l.Perm), pt.NumLocal)
	}
	pm, err := cuda.NewPartMSF(b.dl, b.l.Perm[:pt.NumLocal], orig)
	if err != nil {
		b.mu.Unlock()
		return nil, fmt.Errorf("cuda backend: GPU %d: %w", b.dl.Device().Ordinal(), err)
	}
	return &msfRounds{b: b, pm: pm}, nil
}

// Lightest implements partition.MSFRounds.
func (r *msfRounds) Lightest(compByLid, out []uint32) error {
	if r.pm == nil {
		return fmt.Errorf("cuda backend: msf rounds used after Close")
	}
	if err := r.pm.Lightest(compByLid, out); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// Close implements partition.MSFRounds.
func (r *msfRounds) Close() error {
	if r.pm == nil {
		return nil
	}
	err := r.pm.Close()
	r.pm = nil
	r.b.mu.Unlock()
	return err
}

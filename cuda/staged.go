package cuda

import (
	"sync"
	"unsafe"
)

// Large copies between Go memory and the device go through pinned staging
// buffers, several at once: a copy from pageable memory runs at a fraction
// of the bus's speed, on one thread, and a fresh Go slice's pages are then
// faulted in by that one thread too (kron:24's layout, about 8 GB, took 4.9 s
// to download that way). Each worker owns one pinned buffer: its device copy
// runs at the bus's speed while the other workers move their chunks between
// pinned and Go memory on other cores.
const (
	// StagedChunk is the bytes one worker moves per device copy.
	StagedChunk = 32 << 20
	// StagedWorkers is the number of workers (and pinned buffers).
	StagedWorkers = 8
	// StagedMin is the smallest copy worth staging; smaller ones are
	// copied directly.
	StagedMin = 4 * StagedChunk
)

// stagedCopy is one contiguous copy of a staged transfer: bytes between a
// host address in Go memory and a device address.
type stagedCopy struct {
	host, dev unsafe.Pointer
	bytes     uint64
}

// stagedTransfer runs copies (all to the host, or all to the device) through
// pinned staging buffers with StagedWorkers workers; copies smaller than
// StagedMin go directly. It returns the first error.
func stagedTransfer(d Device, toHost bool, copies []stagedCopy) error {
	type chunk struct {
		host, dev unsafe.Pointer
		n         uint64
	}
	var chunks []chunk
	var direct []stagedCopy
	for _, c := range copies {
		if c.bytes < StagedMin {
			direct = append(direct, c)
			continue
		}
		for off := uint64(0); off < c.bytes; off += StagedChunk {
			chunks = append(chunks, chunk{unsafe.Add(c.host, off), unsafe.Add(c.dev, off), min(StagedChunk, c.bytes-off)})
		}
	}
	for _, c := range direct {
		if err := directCopy(d, toHost, c.host, c.dev, c.bytes); err != nil {
			return err
		}
	}
	if len(chunks) == 0 {
		return nil
	}
	workers := min(StagedWorkers, len(chunks))
	next := make(chan chunk)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			buf, err := AllocPinned[byte](d, StagedChunk)
			if err != nil {
				errs[w] = err
				for range next { // drain so the sender does not block
				}
				return
			}
			defer buf.Free()
			stage := buf.Slice()
			for c := range next {
				if errs[w] != nil {
					continue
				}
				host := unsafe.Slice((*byte)(c.host), c.n)
				if toHost {
					errs[w] = backendCopyDtoH(d.ordinal, buf.p, c.dev, c.n)
					copy(host, stage[:c.n])
				} else {
					copy(stage[:c.n], host)
					errs[w] = backendCopyHtoD(d.ordinal, c.dev, buf.p, c.n)
				}
			}
		}(w)
	}
	for _, c := range chunks {
		next <- c
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// directCopy copies bytes between host and dev synchronously.
func directCopy(d Device, toHost bool, host, dev unsafe.Pointer, bytes uint64) error {
	if bytes == 0 {
		return nil
	}
	if toHost {
		return backendCopyDtoH(d.ordinal, host, dev, bytes)
	}
	return backendCopyHtoD(d.ordinal, dev, host, bytes)
}

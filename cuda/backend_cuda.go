//go:build cuda

package cuda

/*
#cgo CFLAGS: -I${SRCDIR}/../kernels
#cgo LDFLAGS: -L${SRCDIR}/../build/kernels -lmgraphkernels -lcudart_static -lstdc++ -ldl -lrt -lpthread -lm
#include "mgraph.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

const builtWithCUDA = true

// kernelsID is set by the Makefile (-ldflags -X) to a hash of the kernels
// library, so that Go relinks binaries when only the library changed (Go's
// build cache does not see files named by #cgo LDFLAGS).
var kernelsID string

// The Go copies of the C API's constants must agree with mgraph.h: each line
// fails to compile if they differ.
var (
	_ [codeOK - C.MG_OK]struct{}
	_ [C.MG_OK - codeOK]struct{}
	_ [codeCUDA - C.MG_ERR_CUDA]struct{}
	_ [C.MG_ERR_CUDA - codeCUDA]struct{}
	_ [codeOOM - C.MG_ERR_OOM]struct{}
	_ [C.MG_ERR_OOM - codeOOM]struct{}
	_ [codeNoDevice - C.MG_ERR_NO_DEVICE]struct{}
	_ [C.MG_ERR_NO_DEVICE - codeNoDevice]struct{}
	_ [codeInvalid - C.MG_ERR_INVALID]struct{}
	_ [C.MG_ERR_INVALID - codeInvalid]struct{}
	_ [reduceScratchElems*8 - C.MG_REDUCE_SCRATCH_BYTES]struct{}
	_ [C.MG_REDUCE_SCRATCH_BYTES - reduceScratchElems*8]struct{}
)

// call runs one C API function with an error buffer and turns a failure into
// an *Error for operation op.
func call(op string, f func(err *C.char, n C.size_t) C.int) error {
	var buf [C.MG_ERRLEN]C.char
	rc := f(&buf[0], C.size_t(len(buf)))
	if rc == C.MG_OK {
		return nil
	}
	return &Error{Op: op, Detail: C.GoString(&buf[0]), Code: int(rc)}
}

func backendVersions() (driver, runtime int, err error) {
	var d, r C.int
	err = call("Versions", func(e *C.char, n C.size_t) C.int { return C.mg_versions(&d, &r, e, n) })
	return int(d), int(r), err
}

func backendDeviceCount() (int, error) {
	var c C.int
	err := call("DeviceCount", func(e *C.char, n C.size_t) C.int { return C.mg_device_count(&c, e, n) })
	return int(c), err
}

func backendProps(dev int) (DeviceProps, error) {
	var p C.mg_device_props
	if err := call("Props", func(e *C.char, n C.size_t) C.int {
		return C.mg_device_props_get(C.int(dev), &p, e, n)
	}); err != nil {
		return DeviceProps{}, err
	}
	return DeviceProps{
		Ordinal:              int(p.ordinal),
		Name:                 C.GoString(&p.name[0]),
		PCIBusID:             C.GoString(&p.pci_bus_id[0]),
		Major:                int(p.major),
		Minor:                int(p.minor),
		Multiprocessors:      int(p.multiprocessors),
		TotalMemory:          uint64(p.total_mem),
		FreeMemory:           uint64(p.free_mem),
		SharedPerBlock:       uint64(p.shared_per_block),
		SharedPerBlockOptin:  uint64(p.shared_per_block_optin),
		SharedPerSM:          uint64(p.shared_per_sm),
		L2Bytes:              uint64(p.l2_bytes),
		PersistingL2MaxBytes: uint64(p.persisting_l2_max_bytes),
		RegistersPerBlock:    int(p.regs_per_block),
		WarpSize:             int(p.warp_size),
		MaxThreadsPerBlock:   int(p.max_threads_per_block),
		MaxThreadsPerSM:      int(p.max_threads_per_sm),
		MaxBlocksPerSM:       int(p.max_blocks_per_sm),
		ClockKHz:             int(p.clock_khz),
		MemoryClockKHz:       int(p.mem_clock_khz),
		MemoryBusWidth:       int(p.mem_bus_width_bits),
		ECC:                  p.ecc_enabled != 0,
		AsyncEngines:         int(p.async_engines),
		DriverVersion:        int(p.driver_version),
		RuntimeVersion:       int(p.runtime_version),
	}, nil
}

func backendMemInfo(dev int) (free, total uint64, err error) {
	var f, t C.uint64_t
	err = call("MemInfo", func(e *C.char, n C.size_t) C.int { return C.mg_mem_info(C.int(dev), &f, &t, e, n) })
	return uint64(f), uint64(t), err
}

func backendDeviceSync(dev int) error {
	return call("Synchronize", func(e *C.char, n C.size_t) C.int { return C.mg_device_synchronize(C.int(dev), e, n) })
}

// The faults' numbers must agree with mgraph.h.
var (
	_ [int(FaultLaunch) - C.MG_FAULT_LAUNCH]struct{}
	_ [C.MG_FAULT_LAUNCH - int(FaultLaunch)]struct{}
	_ [int(FaultIllegalAddress) - C.MG_FAULT_ILLEGAL_ADDRESS]struct{}
	_ [C.MG_FAULT_ILLEGAL_ADDRESS - int(FaultIllegalAddress)]struct{}
)

func backendDeviceRecover(dev int) (fault error, err error) {
	var reset C.int
	var buf [C.MG_ERRLEN]C.char
	if rc := C.mg_device_recover(C.int(dev), &reset, &buf[0], C.size_t(len(buf))); rc != C.MG_OK {
		e := &Error{Op: "Recover", Detail: C.GoString(&buf[0]), Code: int(rc)}
		if reset != 0 {
			return nil, fmt.Errorf("%w: %w", ErrDeviceLost, e)
		}
		return nil, e
	}
	if reset != 0 {
		return &Error{Op: "Recover", Detail: C.GoString(&buf[0]), Code: int(C.MG_ERR_CUDA)}, nil
	}
	return nil, nil
}

func backendInjectFault(dev, kind int) error {
	return call("InjectFault", func(e *C.char, n C.size_t) C.int { return C.mg_inject_fault(C.int(dev), C.int(kind), e, n) })
}

func backendMalloc(dev int, bytes uint64) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	err := call("Alloc", func(e *C.char, n C.size_t) C.int {
		return C.mg_malloc(C.int(dev), &p, C.uint64_t(bytes), e, n)
	})
	return p, err
}

func backendFree(dev int, p unsafe.Pointer) error {
	return call("Free", func(e *C.char, n C.size_t) C.int { return C.mg_free(C.int(dev), p, e, n) })
}

func backendCopyHtoD(dev int, dst, src unsafe.Pointer, bytes uint64) error {
	return call("CopyFromHost", func(e *C.char, n C.size_t) C.int {
		return C.mg_memcpy_htod(C.int(dev), dst, src, C.uint64_t(bytes), e, n)
	})
}

func backendCopyDtoH(dev int, dst, src unsafe.Pointer, bytes uint64) error {
	return call("CopyToHost", func(e *C.char, n C.size_t) C.int {
		return C.mg_memcpy_dtoh(C.int(dev), dst, src, C.uint64_t(bytes), e, n)
	})
}

func backendCopyDtoD(dev int, dst, src unsafe.Pointer, bytes uint64) error {
	return call("CopyFrom", func(e *C.char, n C.size_t) C.int {
		return C.mg_memcpy_dtod(C.int(dev), dst, src, C.uint64_t(bytes), e, n)
	})
}

func backendMemset(dev int, p unsafe.Pointer, value byte, bytes uint64, s unsafe.Pointer) error {
	return call("Memset", func(e *C.char, n C.size_t) C.int {
		return C.mg_memset(C.int(dev), p, C.int(value), C.uint64_t(bytes), C.mg_stream(s), e, n)
	})
}

func backendStreamCreate(dev int) (unsafe.Pointer, error) {
	var s C.mg_stream
	err := call("NewStream", func(e *C.char, n C.size_t) C.int { return C.mg_stream_create(C.int(dev), &s, e, n) })
	return unsafe.Pointer(s), err
}

func backendStreamDestroy(dev int, s unsafe.Pointer) error {
	return call("Stream.Destroy", func(e *C.char, n C.size_t) C.int {
		return C.mg_stream_destroy(C.int(dev), C.mg_stream(s), e, n)
	})
}

func backendStreamSync(dev int, s unsafe.Pointer) error {
	return call("Stream.Synchronize", func(e *C.char, n C.size_t) C.int {
		return C.mg_stream_synchronize(C.int(dev), C.mg_stream(s), e, n)
	})
}

func backendEventCreate(dev int) (unsafe.Pointer, error) {
	var ev C.mg_event
	err := call("NewEvent", func(e *C.char, n C.size_t) C.int { return C.mg_event_create(C.int(dev), &ev, e, n) })
	return unsafe.Pointer(ev), err
}

func backendEventDestroy(dev int, ev unsafe.Pointer) error {
	return call("Event.Destroy", func(e *C.char, n C.size_t) C.int {
		return C.mg_event_destroy(C.int(dev), C.mg_event(ev), e, n)
	})
}

func backendEventRecord(dev int, ev, s unsafe.Pointer) error {
	return call("Event.Record", func(e *C.char, n C.size_t) C.int {
		return C.mg_event_record(C.int(dev), C.mg_event(ev), C.mg_stream(s), e, n)
	})
}

func backendEventSync(dev int, ev unsafe.Pointer) error {
	return call("Event.Synchronize", func(e *C.char, n C.size_t) C.int {
		return C.mg_event_synchronize(C.int(dev), C.mg_event(ev), e, n)
	})
}

func backendEventElapsed(dev int, start, end unsafe.Pointer) (float32, error) {
	var ms C.float
	err := call("Elapsed", func(e *C.char, n C.size_t) C.int {
		return C.mg_event_elapsed_ms(C.int(dev), C.mg_event(start), C.mg_event(end), &ms, e, n)
	})
	return float32(ms), err
}

func backendProbeCopy(dev int, dst, src unsafe.Pointer, bytes uint64, s unsafe.Pointer) error {
	return call("Probe (copy kernel)", func(e *C.char, n C.size_t) C.int {
		return C.mg_probe_copy(C.int(dev), dst, src, C.uint64_t(bytes), C.mg_stream(s), e, n)
	})
}

func backendProbeRead(dev int, src unsafe.Pointer, bytes uint64, sum, s unsafe.Pointer) error {
	return call("Probe (read kernel)", func(e *C.char, n C.size_t) C.int {
		return C.mg_probe_read(C.int(dev), src, C.uint64_t(bytes), (*C.uint32_t)(sum), C.mg_stream(s), e, n)
	})
}

func backendReduceSumU32(dev int, in unsafe.Pointer, count uint64, out, scratch unsafe.Pointer, scratchBytes uint64, s unsafe.Pointer) error {
	return call("SumUint32", func(e *C.char, n C.size_t) C.int {
		return C.mg_reduce_sum_u32(C.int(dev), (*C.uint32_t)(in), C.uint64_t(count), (*C.uint64_t)(out),
			scratch, C.uint64_t(scratchBytes), C.mg_stream(s), e, n)
	})
}

func backendReduceSumF64(dev int, in unsafe.Pointer, count uint64, out, scratch unsafe.Pointer, scratchBytes uint64, s unsafe.Pointer) error {
	return call("SumFloat64", func(e *C.char, n C.size_t) C.int {
		return C.mg_reduce_sum_f64(C.int(dev), (*C.double)(in), C.uint64_t(count), (*C.double)(out),
			scratch, C.uint64_t(scratchBytes), C.mg_stream(s), e, n)
	})
}

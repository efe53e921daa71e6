//go:build !cuda

package cuda

import (
	"errors"
	"testing"
)

func TestStubReportsNoCUDA(t *testing.T) {
	if BuiltWithCUDA() || Available() {
		t.Fatal("stub build claims CUDA")
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNoCUDA) {
			t.Errorf("%s: %v, want ErrNoCUDA", what, err)
		}
	}
	_, err := DeviceCount()
	check("DeviceCount", err)
	_, err = Devices()
	check("Devices", err)
	_, err = GetDevice(0)
	check("GetDevice", err)
	_, _, err = Versions()
	check("Versions", err)
	d := Device{}
	_, err = d.Props()
	check("Props", err)
	_, _, err = d.MemInfo()
	check("MemInfo", err)
	check("Synchronize", d.Synchronize())
	_, err = Alloc[uint32](d, 16)
	check("Alloc", err)
	_, err = d.NewStream()
	check("NewStream", err)
	_, err = d.NewEvent()
	check("NewEvent", err)
	_, err = Probe(d, ProbeOptions{Bytes: 1 << 20, Runs: 1})
	check("Probe", err)
}

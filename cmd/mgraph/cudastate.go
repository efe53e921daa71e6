package main

import (
	"errors"
	"fmt"

	"github.com/mgraph-dev/mgraph/cuda"
)

// cudaBuildState says whether this binary was built with CUDA support and,
// if so, which runtime it links and which devices it sees.
func cudaBuildState() string {
	if !cuda.BuiltWithCUDA() {
		return "not built in (CPU only; build with nvcc present, see docs/gpu.md)"
	}
	driver, runtime, err := cuda.Versions()
	if err != nil {
		return fmt.Sprintf("built in; %v", err)
	}
	s := "built in (runtime " + cuda.FormatVersion(runtime)
	if driver > 0 {
		s += ", driver " + cuda.FormatVersion(driver)
	} else {
		s += ", no driver"
	}
	s += ")"
	devs, err := cuda.Devices()
	switch {
	case errors.Is(err, cuda.ErrNoDevice):
		return s + "; no device visible"
	case err != nil:
		return s + "; " + err.Error()
	}
	names := ""
	for i, d := range devs {
		p, err := d.Props()
		if err != nil {
			return s + "; " + err.Error()
		}
		if i > 0 {
			names += ", "
		}
		names += p.Name
	}
	return fmt.Sprintf("%s; %d device(s): %s", s, len(devs), names)
}

// cudaUnavailable turns the errors that mean "no GPU here" into a message a
// user can act on; other errors pass through.
func cudaUnavailable(err error) error {
	switch {
	case errors.Is(err, cuda.ErrNoCUDA):
		return errors.New("this mgraph was built without CUDA (CPU only): install the toolkit (make cuda-toolkit) and rebuild with make; see docs/gpu.md")
	case errors.Is(err, cuda.ErrNoDevice):
		return fmt.Errorf("no CUDA device visible (no GPU, or no usable driver): %w", err)
	}
	return err
}

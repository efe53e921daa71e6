package cuda

import "fmt"

// BuiltWithCUDA reports whether this binary was built with the "cuda" tag,
// i.e. with the kernels library linked in.
func BuiltWithCUDA() bool { return builtWithCUDA }

// Available reports whether CUDA work can run: the binary was built with
// CUDA and at least one device is visible.
func Available() bool {
	n, err := DeviceCount()
	return err == nil && n > 0
}

// Versions returns the CUDA driver's version and that of the runtime linked
// into the binary, both encoded as 1000*major + 10*minor (12080 is 12.8).
// The driver version is 0 when no driver is installed.
func Versions() (driver, runtime int, err error) { return backendVersions() }

// FormatVersion formats a version from Versions as "major.minor".
func FormatVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// DeviceCount returns the number of visible devices. With none it returns
// an error matching ErrNoDevice (never 0 and nil).
func DeviceCount() (int, error) { return backendDeviceCount() }

// Device is one GPU, by ordinal. The zero value is device 0.
type Device struct{ ordinal int }

// Devices returns every visible device.
func Devices() ([]Device, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	ds := make([]Device, n)
	for i := range ds {
		ds[i] = Device{i}
	}
	return ds, nil
}

// GetDevice returns the device with the given ordinal, checking that it is
// visible.
func GetDevice(ordinal int) (Device, error) {
	n, err := DeviceCount()
	if err != nil {
		return Device{}, err
	}
	if ordinal < 0 || ordinal >= n {
		return Device{}, invalidf("GetDevice", "device %d does not exist (%d visible)", ordinal, n)
	}
	return Device{ordinal}, nil
}

// Ordinal returns the device's CUDA ordinal.
func (d Device) Ordinal() int { return d.ordinal }

// String returns "cuda:N".
func (d Device) String() string { return fmt.Sprintf("cuda:%d", d.ordinal) }

// Props queries the device's properties (FreeMemory as of the call).
func (d Device) Props() (DeviceProps, error) { return backendProps(d.ordinal) }

// MemInfo returns the device's free and total memory in bytes.
func (d Device) MemInfo() (free, total uint64, err error) { return backendMemInfo(d.ordinal) }

// Synchronize waits for all work queued on the device and returns the first
// error of any of it.
func (d Device) Synchronize() error { return backendDeviceSync(d.ordinal) }

// Recover makes the device usable again after a fault. A kernel's illegal
// address, trap or assert loses the device's context for the whole
// process: every later call fails. Recover waits for the device's work;
// when that reports such a fault it resets the device, which frees every
// allocation, stream and event this process had there (whatever used them
// is dead already), and returns the fault it cleared. It returns nil, nil
// on a healthy device, and an error when even the reset fails: ErrDeviceLost
// (errors.Is) when the device stays unusable after it.
func (d Device) Recover() (fault error, err error) { return backendDeviceRecover(d.ordinal) }

// Fault is a kind of fault InjectFault causes.
type Fault int

// The faults InjectFault causes (mgraph.h's MG_FAULT_*).
const (
	// FaultLaunch is a launch refused for its configuration: an error the
	// context survives.
	FaultLaunch Fault = 1
	// FaultIllegalAddress is a kernel writing where no allocation is: the
	// context is lost until Recover.
	FaultIllegalAddress Fault = 2
)

// InjectFault causes fault f on the device, for the tests of error
// handling, and returns the error it gives, which names the kernel.
func (d Device) InjectFault(f Fault) error { return backendInjectFault(d.ordinal, int(f)) }

// DeviceProps describes one device. Sizes are in bytes, clocks in kHz.
type DeviceProps struct {
	Ordinal  int    `json:"ordinal"`
	Name     string `json:"name"`
	PCIBusID string `json:"pci_bus_id"`
	// Major and Minor are the compute capability (9.0 for Hopper).
	Major int `json:"cc_major"`
	Minor int `json:"cc_minor"`
	// Multiprocessors is the SM count.
	Multiprocessors int    `json:"multiprocessors"`
	TotalMemory     uint64 `json:"total_memory"`
	FreeMemory      uint64 `json:"free_memory"`
	// SharedPerBlock is the default shared-memory limit of a block (48 KiB);
	// SharedPerBlockOptin the most a kernel may opt in to with
	// cudaFuncSetAttribute; SharedPerSM the shared memory of one SM.
	SharedPerBlock       uint64 `json:"shared_per_block"`
	SharedPerBlockOptin  uint64 `json:"shared_per_block_optin"`
	SharedPerSM          uint64 `json:"shared_per_sm"`
	L2Bytes              uint64 `json:"l2_bytes"`
	PersistingL2MaxBytes uint64 `json:"persisting_l2_max_bytes"`
	RegistersPerBlock    int    `json:"registers_per_block"`
	WarpSize             int    `json:"warp_size"`
	MaxThreadsPerBlock   int    `json:"max_threads_per_block"`
	MaxThreadsPerSM      int    `json:"max_threads_per_sm"`
	MaxBlocksPerSM       int    `json:"max_blocks_per_sm"`
	// ClockKHz is the SM's peak clock, MemoryClockKHz the memory's.
	ClockKHz       int `json:"clock_khz"`
	MemoryClockKHz int `json:"memory_clock_khz"`
	// MemoryBusWidth is in bits.
	MemoryBusWidth int  `json:"memory_bus_width_bits"`
	ECC            bool `json:"ecc"`
	AsyncEngines   int  `json:"async_engines"`
	// DriverVersion and RuntimeVersion as from Versions.
	DriverVersion  int `json:"driver_version"`
	RuntimeVersion int `json:"runtime_version"`
}

// ComputeCapability returns "major.minor", e.g. "9.0".
func (p DeviceProps) ComputeCapability() string { return fmt.Sprintf("%d.%d", p.Major, p.Minor) }

// PeakBandwidthGBps is the theoretical memory bandwidth in GB/s (10^9 bytes):
// two transfers per memory clock (double data rate) over the bus width. The
// probe's figures are compared against it.
func (p DeviceProps) PeakBandwidthGBps() float64 {
	return 2 * float64(p.MemoryClockKHz) * 1e3 * float64(p.MemoryBusWidth) / 8 / 1e9
}

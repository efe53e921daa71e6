//go:build !cuda

package main

// registerBenchBackends registers nothing in a build without the cuda tag:
// `mgraph bench --backends cuda` then says that the GPU engines are not
// built in. The cuda build's version is in bench_cuda.go.
func registerBenchBackends() {}

// cudaBenchNew is nil without the GPU engines: there is no cuda-ops.
func cudaBenchNew() benchNew { return nil }

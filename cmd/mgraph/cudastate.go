package main

// cudaBuildState says whether this binary was built with CUDA support.
// The CUDA runtime layer (cgo/) replaces this with a real query.
func cudaBuildState() string { return "not built in" }

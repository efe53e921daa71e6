package main

import "github.com/mgraph-dev/mgraph/partition"

// partsTrace is a partitioned trial in the --trace file: its supersteps
// and where their time went, from partition.Stats (times in seconds; each
// superstep's compute and phases are its slowest part's).
type partsTrace struct {
	SetupSeconds   float64           `json:"setup_seconds"`
	CollectSeconds float64           `json:"collect_seconds"`
	ParentsSeconds float64           `json:"parents_seconds,omitempty"` // bfs-tree's parent pass
	PartCompute    []float64         `json:"part_compute_seconds"`      // each part's compute, summed
	Supersteps     []superstepRecord `json:"supersteps"`
}

// superstepRecord is one superstep of a partitioned trial.
type superstepRecord struct {
	Active          uint64  `json:"active"`   // frontier vertices over the parts at its start
	Messages        uint64  `json:"messages"` // updates sent to other parts
	Bytes           uint64  `json:"bytes"`
	Pull            bool    `json:"pull,omitempty"`
	ComputeSeconds  float64 `json:"compute_seconds"`
	ExchangeSeconds float64 `json:"exchange_seconds"` // the rest of the superstep, waiting included
	PackSeconds     float64 `json:"pack_seconds"`
	SendSeconds     float64 `json:"send_seconds"` // the exchange phase proper
	UnpackSeconds   float64 `json:"unpack_seconds"`
	ReduceSeconds   float64 `json:"reduce_seconds"`
}

// traceOf is st's record in the --trace file.
func traceOf(st partition.Stats) *partsTrace {
	t := &partsTrace{SetupSeconds: st.Setup.Seconds(), CollectSeconds: st.Collect.Seconds(), ParentsSeconds: st.Parents.Seconds(),
		PartCompute: make([]float64, len(st.PartCompute)), Supersteps: make([]superstepRecord, len(st.Steps))}
	for i, d := range st.PartCompute {
		t.PartCompute[i] = d.Seconds()
	}
	for i, s := range st.Steps {
		t.Supersteps[i] = superstepRecord{Active: s.Active, Messages: s.Messages, Bytes: s.Bytes, Pull: s.Pull,
			ComputeSeconds: s.Compute.Seconds(), ExchangeSeconds: s.Exchange.Seconds(),
			PackSeconds: s.Phases.Pack.Seconds(), SendSeconds: s.Phases.Exchange.Seconds(),
			UnpackSeconds: s.Phases.Unpack.Seconds(), ReduceSeconds: s.Phases.Reduce.Seconds()}
	}
	return t
}

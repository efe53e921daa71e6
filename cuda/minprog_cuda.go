//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

// The Go mirrors of the min engines' C types and constants must agree with
// mgraph.h: each line fails to compile if they differ.
var (
	_ [PullHeavyDegree - C.MG_PULL_HEAVY_DEGREE]struct{}
	_ [C.MG_PULL_HEAVY_DEGREE - PullHeavyDegree]struct{}
	_ [unsafe.Sizeof(dlayout{}) - C.sizeof_mg_dlayout]struct{}
	_ [C.sizeof_mg_dlayout - unsafe.Sizeof(dlayout{})]struct{}
	_ [unsafe.Sizeof(StepCounters{}) - C.sizeof_mg_step_counters]struct{}
	_ [C.sizeof_mg_step_counters - unsafe.Sizeof(StepCounters{})]struct{}
	_ [ProgBFS - C.MG_PROG_BFS]struct{}
	_ [C.MG_PROG_BFS - ProgBFS]struct{}
	_ [ProgSSSP - C.MG_PROG_SSSP]struct{}
	_ [C.MG_PROG_SSSP - ProgSSSP]struct{}
	_ [ProgCC - C.MG_PROG_CC]struct{}
	_ [C.MG_PROG_CC - ProgCC]struct{}
	_ [ProgLabel - C.MG_PROG_LABEL]struct{}
	_ [C.MG_PROG_LABEL - ProgLabel]struct{}
	_ [ProgSSSPF32 - C.MG_PROG_SSSP_F32]struct{}
	_ [C.MG_PROG_SSSP_F32 - ProgSSSPF32]struct{}
	_ [SampleScratch - C.MG_SAMPLE_SCRATCH]struct{}
	_ [C.MG_SAMPLE_SCRATCH - SampleScratch]struct{}
	_ [unsafe.Sizeof(loopRule{}) - C.sizeof_mg_loop_rule]struct{}
	_ [C.sizeof_mg_loop_rule - unsafe.Sizeof(loopRule{})]struct{}
	_ [unsafe.Sizeof(LoopRecord{}) - C.sizeof_mg_loop_record]struct{}
	_ [C.sizeof_mg_loop_record - unsafe.Sizeof(LoopRecord{})]struct{}
	_ [unsafe.Sizeof(loopState{}) - C.sizeof_mg_loop_state]struct{}
	_ [C.sizeof_mg_loop_state - unsafe.Sizeof(loopState{})]struct{}
	_ [LoopRecords - C.MG_LOOP_RECORDS]struct{}
	_ [unsafe.Sizeof(asyncState{}) - C.sizeof_mg_async_state]struct{}
	_ [C.sizeof_mg_async_state - unsafe.Sizeof(asyncState{})]struct{}
	_ [C.MG_LOOP_RECORDS - LoopRecords]struct{}
	_ [unsafe.Sizeof(blockStats{}) - C.sizeof_mg_block_stats]struct{}
	_ [C.sizeof_mg_block_stats - unsafe.Sizeof(blockStats{})]struct{}
	_ [BlockRowWidth - C.MG_BLOCK_ROW_WIDTH]struct{}
	_ [C.MG_BLOCK_ROW_WIDTH - BlockRowWidth]struct{}
	_ [BlockBCMaxLevel - C.MG_BLOCK_BACK_LEVEL]struct{}
	_ [C.MG_BLOCK_BACK_LEVEL - BlockBCMaxLevel]struct{}
)

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func backendMinDense(dev, prog int, desc, values, active, next, stream, ctr unsafe.Pointer, dry bool, ev unsafe.Pointer) error {
	return call("dense step", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_dense_step(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(values),
			(*C.uint8_t)(active), (*C.uint8_t)(next), (*C.uint32_t)(stream), (*C.mg_step_counters)(ctr),
			cbool(dry), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendMinSparse(dev, prog int, desc, values, frontier unsafe.Pointer, count uint32, acc, touched, next, ctr, ev unsafe.Pointer) error {
	return call("sparse step", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_sparse_step(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(values),
			(*C.uint32_t)(frontier), C.uint32_t(count), (*C.uint32_t)(acc), (*C.uint32_t)(touched),
			(*C.uint32_t)(next), (*C.mg_step_counters)(ctr), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendMinSample(dev, prog int, desc, values, frontier unsafe.Pointer, count, stride uint32, scratch, ev unsafe.Pointer) error {
	return call("sparse sample", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_sparse_sample(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(values),
			(*C.uint32_t)(frontier), C.uint32_t(count), C.uint32_t(stride), (*C.uint32_t)(scratch), nil,
			(*C.mg_event)(ev), e, n)
	})
}

func backendMinSparseLoop(dev, prog int, desc, values, list0, list1 unsafe.Pointer, count, maxIters, blocksPerSM uint32, rule, far0, far1, inFar, farState, acc, touched, ctr, state, records, ev unsafe.Pointer) error {
	return call("sparse loop", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_sparse_loop(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(values),
			(*C.uint32_t)(list0), (*C.uint32_t)(list1), C.uint32_t(count), C.uint32_t(maxIters), C.uint32_t(blocksPerSM),
			(*C.mg_loop_rule)(rule), (*C.uint32_t)(far0), (*C.uint32_t)(far1), (*C.uint32_t)(inFar),
			(*C.uint32_t)(farState), (*C.uint32_t)(acc), (*C.uint32_t)(touched), (*C.mg_step_counters)(ctr),
			(*C.mg_loop_state)(state), (*C.mg_loop_record)(records), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendMinPull(dev, prog int, desc, values, active, next, ctr, ev unsafe.Pointer) error {
	return call("pull step", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_pull_step(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(values),
			(*C.uint8_t)(active), (*C.uint8_t)(next), (*C.mg_step_counters)(ctr), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendMinPullAll(dev, prog int, desc, values, active, next, ctr, ev unsafe.Pointer) error {
	return call("pull step", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_pull_all_step(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(values),
			(*C.uint8_t)(active), (*C.uint8_t)(next), (*C.mg_step_counters)(ctr), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendInHeavy(dev int, desc, list unsafe.Pointer) (uint64, error) {
	var k C.uint64_t
	err := call("heavy in-rows", func(e *C.char, n C.size_t) C.int {
		return C.mg_in_heavy(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(list), &k, e, n)
	})
	return uint64(k), err
}

func backendTranspose(dev int, desc, inOffsets, inSrc, inWeights unsafe.Pointer) error {
	return call("transpose", func(e *C.char, n C.size_t) C.int {
		return C.mg_transpose(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint64_t)(inOffsets), (*C.uint32_t)(inSrc), (*C.uint32_t)(inWeights), e, n)
	})
}

func backendFlagsToList(dev int, flags unsafe.Pointer, count uint64, list, pos unsafe.Pointer) error {
	return call("flags to list", func(e *C.char, n C.size_t) C.int {
		return C.mg_flags_to_list(C.int(dev), (*C.uint8_t)(flags), C.uint64_t(count), (*C.uint32_t)(list),
			(*C.uint32_t)(pos), nil, e, n)
	})
}

func backendListToFlags(dev int, list unsafe.Pointer, count uint32, flags unsafe.Pointer, nv uint64) error {
	return call("list to flags", func(e *C.char, n C.size_t) C.int {
		return C.mg_list_to_flags(C.int(dev), (*C.uint32_t)(list), C.uint32_t(count), (*C.uint8_t)(flags),
			C.uint64_t(nv), nil, e, n)
	})
}

func backendFillU32(dev int, p unsafe.Pointer, count uint64, value uint32) error {
	return call("fill", func(e *C.char, n C.size_t) C.int {
		return C.mg_fill_u32(C.int(dev), (*C.uint32_t)(p), C.uint64_t(count), C.uint32_t(value), nil, e, n)
	})
}

var (
	_ [unsafe.Sizeof(PRSums{}) - C.sizeof_mg_pr_sums]struct{}
	_ [C.sizeof_mg_pr_sums - unsafe.Sizeof(PRSums{})]struct{}
	_ [PREvents - C.MG_PR_EVENTS]struct{}
	_ [C.MG_PR_EVENTS - PREvents]struct{}
	_ [PRApplyVertices - C.MG_PR_APPLY_VERTICES]struct{}
	_ [C.MG_PR_APPLY_VERTICES - PRApplyVertices]struct{}
	_ [unsafe.Sizeof(prPull{}) - C.sizeof_mg_pr_pull]struct{}
	_ [C.sizeof_mg_pr_pull - unsafe.Sizeof(prPull{})]struct{}
)

func backendPRPullBuild(dev int, desc unsafe.Pointer, light uint64, src, dst, rowStart unsafe.Pointer) error {
	return call("pagerank pull build", func(e *C.char, n C.size_t) C.int {
		return C.mg_pr_pull_build(C.int(dev), (*C.mg_dlayout)(desc), C.uint64_t(light), (*C.uint32_t)(src),
			(*C.uint16_t)(dst), (*C.uint64_t)(rowStart), e, n)
	})
}

func backendPRPullStep(dev int, desc, pull unsafe.Pointer, damping, tolerance float64, teleport unsafe.Pointer, weight float64, rank, share, acc, partials, ticket, sums, ev unsafe.Pointer) error {
	return call("pagerank pull step", func(e *C.char, n C.size_t) C.int {
		return C.mg_pr_pull_step(C.int(dev), (*C.mg_dlayout)(desc), (*C.mg_pr_pull)(pull), C.double(damping),
			C.double(tolerance), (*C.uint32_t)(teleport), C.double(weight), (*C.double)(rank), (*C.double)(share), (*C.double)(acc), (*C.double)(partials),
			(*C.uint32_t)(ticket), (*C.mg_pr_sums)(sums), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendPRStep(dev int, desc unsafe.Pointer, base, damping float64, rank, share, stream, partials, sums, ev unsafe.Pointer) error {
	return call("pagerank step", func(e *C.char, n C.size_t) C.int {
		return C.mg_pr_step(C.int(dev), (*C.mg_dlayout)(desc), C.double(base), C.double(damping), (*C.double)(rank),
			(*C.double)(share), (*C.double)(stream), (*C.double)(partials), (*C.mg_pr_sums)(sums), nil,
			(*C.mg_event)(ev), e, n)
	})
}

func backendMinAsync(dev, prog int, desc, rows, wrows unsafe.Pointer, rowWidth uint32, values, frontier unsafe.Pointer, count uint32, ring unsafe.Pointer, ringLog2 uint32, queued unsafe.Pointer, delta uint32, far0, far1, inFar, state unsafe.Pointer, blocksPerSM uint32, ev unsafe.Pointer) error {
	return call("async run", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_async(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.uint32_t)(rows), (*C.uint32_t)(wrows), C.uint32_t(rowWidth), (*C.uint32_t)(values),
			(*C.uint32_t)(frontier), C.uint32_t(count), (*C.uint64_t)(ring), C.uint32_t(ringLog2), (*C.uint32_t)(queued), C.uint32_t(delta),
			(*C.uint32_t)(far0), (*C.uint32_t)(far1), (*C.uint32_t)(inFar), (*C.mg_async_state)(state),
			C.uint32_t(blocksPerSM), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendBlockMaxVertices(dev int) (uint64, error) {
	var out C.uint64_t
	err := call("block max vertices", func(e *C.char, n C.size_t) C.int {
		return C.mg_block_max_vertices(C.int(dev), &out, e, n)
	})
	return uint64(out), err
}

func backendClusterMaxVertices(dev int) (uint64, uint32, error) {
	var out C.uint64_t
	var blocks C.uint32_t
	err := call("cluster max vertices", func(e *C.char, n C.size_t) C.int {
		return C.mg_cluster_max_vertices(C.int(dev), &out, &blocks, e, n)
	})
	return uint64(out), uint32(blocks), err
}

func backendBlockMaxDegree(dev int, desc, out unsafe.Pointer) error {
	return call("block max degree", func(e *C.char, n C.size_t) C.int {
		return C.mg_block_max_degree(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(out), nil, e, n)
	})
}

func backendBlockRows(dev int, desc unsafe.Pointer, maxDegree uint32, rows unsafe.Pointer) error {
	return call("block rows", func(e *C.char, n C.size_t) C.int {
		return C.mg_block_rows(C.int(dev), (*C.mg_dlayout)(desc), C.uint32_t(maxDegree), (*C.uint32_t)(rows), nil, e, n)
	})
}

func backendBlockWeightRows(dev int, desc unsafe.Pointer, maxDegree uint32, wrows unsafe.Pointer) error {
	return call("block weight rows", func(e *C.char, n C.size_t) C.int {
		return C.mg_block_weight_rows(C.int(dev), (*C.mg_dlayout)(desc), C.uint32_t(maxDegree), (*C.uint32_t)(wrows), nil, e, n)
	})
}

func backendBlockBFS(dev int, desc, rows, levels, frontier unsafe.Pointer, count uint32, order unsafe.Pointer, bailout uint32, stats, ev unsafe.Pointer) error {
	return call("block bfs", func(e *C.char, n C.size_t) C.int {
		return C.mg_block_bfs(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(rows), (*C.uint32_t)(levels),
			(*C.uint32_t)(frontier), C.uint32_t(count), (*C.uint32_t)(order), C.uint32_t(bailout),
			(*C.mg_block_stats)(stats), nil, (*C.mg_event)(ev), e, n)
	})
}

#!/usr/bin/env bash
# one GPU. b92: the review's mends (mg::group_sum<W>, list_begin/list_end/out_arcs in sparsework.cuh, loopPushModel): the block, cluster and loop tests; luxembourg and uk-2007 validate.
L=/tmp/m131logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 240 $B/gpu.test -test.count=1 -test.v -test.run 'TestBlockRuns|TestBlockRows|TestBCPathCountOverflow|TestClusterRuns|TestBFSPullSteps|TestDeviceLoop|TestMinProgramsAllModesAllShapes|TestBCAuto|TestSumDeviceLoop' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/tests.txt | head
for app in bfs bc sssp; do timeout 60 $B/mgraph run $app /tmp/datasets/luxembourg_osm.mtx.zst --backend cuda --weights 7 --sources 4 --trials 2 --validate --cache-dir /tmp/c 2>&1 | grep -E "validation|trial best" | tail -2; done
timeout 60 $B/mgraph run bfs /tmp/ds3/uk-2007-05_100000.mtx.zst --backend cuda --sources 8 --trials 2 --validate --cache-dir /tmp/c 2>&1 | grep -E "validation|trial best" | tail -2
echo "done $(t)"

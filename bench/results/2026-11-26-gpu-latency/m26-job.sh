#!/usr/bin/env bash
# two GPUs: HEAD (594c36c) validation: CLI tests, gpu suite (the five slowest skipped), barrier microbenchmark, luxembourg BC trace
B=/tmp/mgbin; L=/tmp/m26logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
cd /tmp/m26src
(nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 .device-carry/cl/micro.cu -o /tmp/micro && /tmp/micro > $L/micro.txt 2>&1) &
(cd cmd/mgraph && PATH=$B:$PATH timeout 200 $B/cmd.test -test.count=1 -test.v > $L/cmd.txt 2>&1; echo "rc=$?" >> $L/cmd.txt)
echo "cmd ($(t)): $(tail -1 $L/cmd.txt) pass=$(grep -c '^--- PASS' $L/cmd.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/cmd.txt | head -20
wait; echo "micro:"; cat $L/micro.txt
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for a in bfs bc; do echo "lux $a: $($B/mgraph run $a $X --backend cuda --source 0 --trials 20 --validate 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|reference[^,]*' | tr '\n' ' ')"; done
$B/mgraph run bc $X --backend cuda --source 0 --trials 3 --trace 2>&1 | grep -iE "block|rows|trial|phase" | head -12 > $L/luxtrace.txt; cat $L/luxtrace.txt
(cd gpu && timeout 330 $B/gpu.test -test.count=1 -test.v -test.skip 'TestSumProgramsHubSplit|TestOperatorAppsOnDatasets|TestPageRankOnDatasets|TestPartitionedRuns$|TestSumProgramsOnDatasets' > $L/gpu.txt 2>&1; echo "rc=$?" >> $L/gpu.txt)
echo "gpu ($(t)): $(tail -1 $L/gpu.txt) pass=$(grep -c '^--- PASS' $L/gpu.txt) skip=$(grep -c '^--- SKIP' $L/gpu.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/gpu.txt | head -20; grep -E "^--- SKIP" $L/gpu.txt
echo "done $(t)"

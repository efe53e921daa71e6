#!/bin/bash
# session 3, call A1: PR gather split (heavy-only / light-only variants), then the whole GPU suite (datasets included) and cgo tests
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/t.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/a1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do for v in base nolight noheavy; do
  B=$M; [ $v != base ] && B=$M-$v
  timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"; grep -E "best" $R/pr-$v-$round.log | head -2
done; done
(cd cgo && timeout 60 $T/cgo.test -test.count=1 > $R/cgo.log 2>&1; echo "cgo rc $?"; tail -1 $R/cgo.log)
(cd gpu && timeout 420 $T/gpu.test -test.count=1 -test.v > $R/gpu.log 2>&1; echo "gpu rc $?"; grep -E "^(--- FAIL|ok|FAIL|PASS)" $R/gpu.log | head; grep -E "^--- (PASS|SKIP)" $R/gpu.log | wc -l; grep -E "^--- SKIP" $R/gpu.log | head; grep -B2 -A12 "Error:\|panic" $R/gpu.log | grep -v "0x" | head -30)

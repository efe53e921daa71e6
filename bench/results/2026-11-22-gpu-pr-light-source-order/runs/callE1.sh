#!/bin/bash
# session 3, call E1 (commit 97ff225): the whole GPU suite with datasets; racecheck on the other PageRank shapes
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/t.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; R=$OUT/e1; mkdir -p $R
(cd gpu && timeout 330 $T/gpu.test -test.count=1 -test.v > $R/gpu.log 2>&1; echo "gpu rc $?"; grep -E "^(--- FAIL|ok|FAIL|PASS)" $R/gpu.log | head; grep -E "^--- (PASS|SKIP)" $R/gpu.log | wc -l; grep -E "^--- SKIP" $R/gpu.log; grep -B2 -A12 "Error:\|panic" $R/gpu.log | grep -v "0x" | head -30)
(cd gpu && timeout 240 compute-sanitizer --tool racecheck --print-limit 5 $T/gpu.test -test.count=1 -test.short -test.run 'TestPageRankAllShapes/(rmat-directed-raw|rgg|grid|single|empty)$' > $R/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $R/racecheck.log)
cd $OUT && tar czf e1.tgz e1 && rm -rf e1

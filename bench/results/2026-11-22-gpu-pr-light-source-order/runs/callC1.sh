#!/bin/bash
# session 3, call C1: light edges in source order with shared sums (pull scheme): tests, sanitizers, PR timings vs base
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/t.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/c1; mkdir -p $R
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do for v in base new; do
  B=$M; [ $v != new ] && B=$M-$v
  timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"; grep best $R/pr-$v-$round.log
done; done
timeout 60 $M run pr rmat:21:16 --undirected --backend cuda --cache-dir /tmp/mgc --validate --trials 2 > $R/pr-validate.log 2>&1; echo "validate rc $?"; grep -i "valid" $R/pr-validate.log
(cd gpu && timeout 200 $T/gpu.test -test.count=1 -test.v -test.run 'PageRank' > $R/gpu.log 2>&1; echo "gpu rc $?"; grep -E "^(--- |ok|FAIL|PASS)" $R/gpu.log | head; grep -B2 -A12 "Error:\|panic" $R/gpu.log | grep -v "0x" | head -30)
(cd gpu && timeout 150 compute-sanitizer --tool memcheck --print-limit 5 $T/gpu.test -test.count=1 -test.short -test.run 'TestPageRankAllShapes' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $R/memcheck.log)
(cd gpu && timeout 150 compute-sanitizer --tool racecheck --print-limit 5 $T/gpu.test -test.count=1 -test.short -test.run 'TestPageRankAllShapes' > $R/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $R/racecheck.log)
cd $OUT && tar czf c1.tgz c1 && rm -rf c1

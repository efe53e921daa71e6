#!/bin/bash
# session 3, call C2: shared-sum light scheme: heavy thresholds, chunk sizes, light-only; racecheck on small shapes
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/t.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/c2; mkdir -p $R
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do
  for v in new c16384 c65536 c131072 noheavy; do
    B=$M; [ $v != new ] && B=$M-$v
    timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"
  done
  for th in 9216 36864 73728; do
    timeout 120 $M run $G --heavy-threshold $th --trials 5 --trace $R/pr-new-t$th-$round.json > $R/pr-new-t$th-$round.log 2>&1; echo "t$th $round rc $?"
  done
done
(cd gpu && timeout 240 compute-sanitizer --tool racecheck --print-limit 5 $T/gpu.test -test.count=1 -test.short -test.run 'TestPageRankAllShapes/(rmat|star|chain|disconnected)$' > $R/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $R/racecheck.log)
cd $OUT && tar czf c2.tgz c2 && rm -rf c2

#!/bin/bash
# session 3, call D1 (commit 97ff225): PR R-MAT 21 (20 iterations and default tolerance), unroll 1/4 variants, validate; cgo tests; R-MAT 25 PR
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/t.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/d1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
$M version > $R/version.txt 2>&1
G="pr rmat:21:16 --undirected --backend cuda --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do for v in new u4 u1; do
  B=$M; [ $v != new ] && B=$M-$v
  timeout 120 $B run $G --tolerance 0 --max-iterations 20 --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"; grep best $R/pr-$v-$round.log
done; done
timeout 60 $M run $G --trials 5 --trace $R/pr-default.json > $R/pr-default.log 2>&1; echo "default rc $?"; grep best $R/pr-default.log
timeout 60 $M run $G --validate --trials 2 > $R/pr-validate.log 2>&1; echo "validate rc $?"; grep -i "valid" $R/pr-validate.log
(cd cgo && timeout 60 $T/cgo.test -test.count=1 > $R/cgo.log 2>&1; echo "cgo rc $?"; tail -1 $R/cgo.log)
mkdir -p $R/rmat25
timeout 300 $M bench --apps pr --modes hybrid --backends cuda --trials 3 --symmetrize --preprocess-on gpu --no-cache --out $R/rmat25 rmat:25:16 > $R/rmat25/bench.log 2>&1; echo "rmat25 rc $?"; tail -5 $R/rmat25/bench.log
cd $OUT && tar czf d1.tgz d1 && rm -rf d1

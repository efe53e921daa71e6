#!/bin/bash
# session 3, call B1: light-gather variants (unroll 4/8, ldcg) and heavy thresholds 8192/4096, PR 20 iterations, two rounds
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/v.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/b1; mkdir -p $R
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do
  for v in base u4 ldcg u4ldcg u8; do
    B=$M; [ $v != base ] && B=$M-$v
    timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"
  done
  for th in 8192 4096; do for v in base u4; do
    B=$M; [ $v != base ] && B=$M-$v
    timeout 120 $B run $G --heavy-threshold $th --trials 5 --trace $R/pr-$v-t$th-$round.json > $R/pr-$v-t$th-$round.log 2>&1; echo "$v t$th $round rc $?"
  done; done
done
cd $OUT && tar czf b1.tgz b1 && rm -rf b1

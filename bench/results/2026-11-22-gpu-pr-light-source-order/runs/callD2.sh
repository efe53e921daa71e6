#!/bin/bash
# session 3, call D2: what bounds the source-order light chunks: without shared atomics, with 4-byte gathers (float32 shares' footprint), with/without heavy chunks
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/v.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/d2; mkdir -p $R
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do for v in new nh nhna nhf32 f32 na; do
  B=$M; [ $v != new ] && B=$M-$v
  timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"
done; done
cd $OUT && tar czf d2.tgz d2 && rm -rf d2

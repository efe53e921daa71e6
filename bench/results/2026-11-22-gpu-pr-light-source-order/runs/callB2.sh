#!/bin/bash
# session 3, call B2: light gathers confined to 8 MB / 2 MB of shares (what float32 shares' footprint would be), with and without heavy chunks
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/v.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/b2; mkdir -p $R
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do
  for v in base noheavy m20 m20nh m18nh; do
    B=$M; [ $v != base ] && B=$M-$v
    timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"
  done
done
cd $OUT && tar czf b2.tgz b2 && rm -rf b2

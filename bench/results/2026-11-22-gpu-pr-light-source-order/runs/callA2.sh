#!/bin/bash
cd "$(dirname "$0")/.." || exit 1
xz -dc .device-carry/t.txz | tar xf - -C .device-carry
T=$PWD/.device-carry/t; M=$T/mgraph; R=$OUT/a2; mkdir -p $R
G="pr rmat:21:16 --undirected --backend cuda --tolerance 0 --max-iterations 20 --cache-dir /tmp/mgc --preprocess-on gpu"
for round in 1 2; do for v in base nolight noheavy; do
  B=$M; [ $v != base ] && B=$M-$v
  timeout 120 $B run $G --trials 5 --trace $R/pr-$v-$round.json > $R/pr-$v-$round.log 2>&1; echo "$v $round rc $?"
done; done
cd $OUT && tar czf a2.tgz a2 && rm -rf a2

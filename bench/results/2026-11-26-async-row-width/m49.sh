#!/usr/bin/env bash
# one GPU (b21): traces of uk-2007 BFS from 15455 and 12302, with pull and push-only
cd "$(dirname "$0")/.."
B=/tmp/b21; mkdir -p $B $OUT; xz -dc .device-carry/b21/mgraph.xz > $B/mgraph; chmod +x $B/mgraph
D=.device-carry/datasets
for s in 15455 12302; do
 $B/mgraph run bfs $D/uk-2007-05_100000.mtx.zst --backend cuda --trials 3 --source $s --trace $OUT/pull-$s.json | tail -1
 $B/mgraph run bfs $D/uk-2007-05_100000.mtx.zst --backend cuda --trials 3 --source $s --no-pull --trace $OUT/push-$s.json | tail -1
done
python3 .device-carry/trace.py $OUT/pull-15455.json $OUT/push-15455.json

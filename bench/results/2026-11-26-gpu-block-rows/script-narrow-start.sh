#!/usr/bin/env bash
# one GPU: auto starts narrow graphs' BFS and BC sources in one block (no 16 hybrid levels first): luxembourg, the 1024 grid, R-MAT 20; block tests
source "$(dirname "$0")/unpack.sh"
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 100 $B/gpu.test -test.count=1 -test.v -test.run 'TestBlock' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt)"; grep -E "^(--- |ok|FAIL|panic)|Error:|Messages:|fatal" $L/tests.txt | head -12
X=.device-carry/datasets/luxembourg_osm.mtx.zst
$B/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
$B/mgraph gen rmat:20:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r20.mgb > /dev/null 2>&1
r() { echo "$1 ($(t)): $(shift; $B/mgraph run "$@" --backend cuda 2>&1 | grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms|validation: .*|rror.*' | tr '\n' ' ')"; }
for round in 1 2 3; do
  V=; [ $round = 1 ] && V=--validate
  for app in bfs bc; do r "lux $app r$round" $app $X --trials 20 --source 0 $V; done
  for app in bfs bc; do r "grid $app r$round" $app /tmp/g1024.mgb --trials 8 --source 524800 $V; done
  r "r20 bfs r$round" bfs /tmp/r20.mgb --trials 8 --source 0 $V
done
$B/mgraph run bfs $X --backend cuda --trials 3 --source 0 --trace $L/lux-bfs.json > /dev/null 2>&1
echo "done $(t)"
tar czf $OUT/logs.tgz -C $OUT logs

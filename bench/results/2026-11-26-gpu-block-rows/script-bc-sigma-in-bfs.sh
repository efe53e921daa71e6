#!/usr/bin/env bash
# one GPU: Brandes over rows with σ made in the BFS (b6) against b5 (σ pass after the BFS): tests, sanitizers, luxembourg and the 1024 grid
B=/tmp/mgbin; mkdir -p $B; L=$OUT/logs; mkdir -p $L
for d in b5 b6; do for f in .device-carry/$d/*.xz; do xz -dc $f > $B/$d-$(basename $f .xz); chmod +x $B/$d-$(basename $f .xz); done; done
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 100 $B/b6-gpu.test -test.count=1 -test.v -test.run 'TestBlock' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt)"; grep -E "^(--- |ok|FAIL|panic)|Error:|Messages:|fatal" $L/tests.txt | head -12
for tool in memcheck racecheck; do (cd gpu && timeout 150 compute-sanitizer --tool $tool $B/b6-gpu.test -test.count=1 -test.run 'TestBlockRows' > $L/san-$tool.txt 2>&1; echo "rc=$?" >> $L/san-$tool.txt); echo "$tool ($(t)): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rc=' $L/san-$tool.txt | tr '\n' ' ')"; done
X=.device-carry/datasets/luxembourg_osm.mtx.zst
$B/b5-mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
r() { echo "$1 ($(t)): $(shift; "$@" --backend cuda 2>&1 | grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms|validation: .*|rror.*' | tr '\n' ' ')"; }
for round in 1 2 3; do for v in b5 b6; do
  V=; [ $round = 1 ] && V=--validate
  r "lux bc $v r$round" $B/$v-mgraph run bc $X --trials 20 --source 0 $V
  r "lux bc8 $v r$round" $B/$v-mgraph run bc $X --trials 5 --sources 8 $V
  r "grid bc $v r$round" $B/$v-mgraph run bc /tmp/g1024.mgb --trials 8 --source 524800 $V
done; done
echo "done $(t)"
tar czf $OUT/logs.tgz -C $OUT logs

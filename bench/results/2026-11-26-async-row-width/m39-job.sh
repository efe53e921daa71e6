#!/usr/bin/env bash
# one GPU: rows rounds issue every slot's atomic before waiting (b15) against 14265b8 (b13)
L=/tmp/m39logs; mkdir -p $L
for d in b13 b15; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b15/gpu.test.xz > /tmp/b15/gpu.test; chmod +x /tmp/b15/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 150 /tmp/b15/gpu.test -test.count=1 -test.v -test.run 'TestAsync|TestFloat32|TestNearFar|TestMinProgramsAllModesAllShapes|TestMinProgramsOnDatasets' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal|Error Trace" $L/tests.txt | head -30
[ -f /tmp/g2048.mgb ] || /tmp/b13/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
[ -f /tmp/g1024.mgb ] || /tmp/b13/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
G=/tmp/g2048.mgb; S="--source 2098176"
for r in 1 2; do V=$( [ $r = 1 ] && echo --validate )
 for d in b13 b15; do
  one $d sssp $G "$S $V"
  one $d bfs $G "$S --mode async $V"
  one $d cc $G "--mode async $V"
  one $d sssp $X "--source 0 --weights 7 $V"
  one $d bfs $X "--source 0 --mode async $V"
  one $d sssp /tmp/g1024.mgb "--source 524800 $V"
 done
done
/tmp/b15/mgraph run sssp $G $S --backend cuda --trials 3 --trace 2>&1 | tail -4 > $L/trace.txt
for nf in 1024 1536 3072; do one b15 sssp $G "$S --gpu-near-far $nf"; done
one b15 sssp $G "$S --gpu-async-blocks 3"
echo "done $(t)"

#!/usr/bin/env bash
# one GPU: unweighted min programs keep 64 items a block (b25) against 128 (b23)
L=/tmp/m55logs; mkdir -p $L
for d in b23 b25; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b25/gpu.test.xz > /tmp/b25/gpu.test; chmod +x /tmp/b25/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 /tmp/b25/gpu.test -test.count=1 -test.v -test.run 'TestAsync|TestFloat32|TestNearFar|TestMinProgramsAllModesAllShapes|TestMinProgramsOnDatasets|TestBC|TestBlock|TestCluster|TestSumProgramsAllModesAllShapes' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
for s in 1024 2048 4096; do [ -f /tmp/g$s.mgb ] || /tmp/b23/mgraph gen grid:$s:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g$s.mgb > /dev/null 2>&1; done
[ -f /tmp/r21.mgb ] || /tmp/b23/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r21.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
for r in 1 2; do V=$([ $r = 1 ] && echo --validate); for d in b23 b25; do
 one $d bfs /tmp/g2048.mgb "--source 2098176 $V"; one $d bfs /tmp/g2048.mgb "--source 0 $V"; one $d sssp /tmp/g2048.mgb "--source 2098176 $V"
 one $d cc /tmp/g2048.mgb "--mode async $V"; one $d cc-lp /tmp/g2048.mgb "--mode async $V"
 one $d bfs /tmp/g1024.mgb "--source 524800 $V"; one $d bfs /tmp/g4096.mgb "--source 8390656 --trials 4 $V"
 one $d bfs $X "--source 0 --trials 20 $V"; one $d bfs $X "--source 0 --mode async --trials 20 $V"; one $d cc-lp $X "--mode async --trials 20 $V"
 one $d bfs /tmp/r21.mgb "--source 0 --mode async $V"; one $d bfs /tmp/r21.mgb "--source 0 $V"
done; done
echo "done $(t)"

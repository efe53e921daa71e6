#!/usr/bin/env bash
# one GPU: async runs over fixed-width rows (b12) against HEAD (b11); --gpu-no-block-rows keeps the CSR
L=/tmp/m35logs; mkdir -p $L
for d in b11 b12; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b12/gpu.test.xz > /tmp/b12/gpu.test; chmod +x /tmp/b12/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 /tmp/b12/gpu.test -test.count=1 -test.v -test.run 'TestAsync|TestFloat32|TestNearFar|TestMinProgramsAllModesAllShapes|TestSumProgramsAllModesAllShapes|TestBC|TestCluster|TestBlock|TestMinProgramsOnDatasets|TestDeviceLoop' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal|Error Trace" $L/tests.txt | head -30
(cd gpu && timeout 150 compute-sanitizer --tool memcheck /tmp/b12/gpu.test -test.count=1 -test.run 'TestAsyncOnce|TestFloat32SSSPVariants' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"
[ -f /tmp/g2048.mgb ] || /tmp/b11/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
[ -f /tmp/g1024.mgb ] || /tmp/b11/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
[ -f /tmp/r21.mgb ] || /tmp/b11/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r21.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
G=/tmp/g2048.mgb; S="--source 2098176"
for r in 1 2; do V=$( [ $r = 1 ] && echo --validate )
 for d in b11 b12; do
  one $d sssp $G "$S $V"
  one $d bfs $G "$S --mode async $V"
  one $d bc $G "$S --mode async $V"
  one $d cc $G "--mode async $V"
  one $d sssp $X "--source 0 --weights 7 $V"
  one $d sssp /tmp/g1024.mgb "--source 524800 $V"
  one $d sssp /tmp/r21.mgb "--source 0 --mode async $V"
 done
 one b12 sssp $G "$S --gpu-no-block-rows"
done
for nf in 1024 1536 3072; do one b12 sssp $G "$S --gpu-near-far $nf"; done
one b12 sssp $G "$S --gpu-async-blocks 3"
echo "done $(t)"

#!/usr/bin/env bash
# one GPU: warp-aggregated bucket changes (b11) against b10; MG_ASYNC_KEEP 64/256 variants; blocks per SM
L=/tmp/m33logs; mkdir -p $L
for d in b10 b11 k256; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b11/gpu.test.xz > /tmp/b11/gpu.test; chmod +x /tmp/b11/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
(cd gpu && timeout 200 /tmp/b11/gpu.test -test.count=1 -test.v -test.run 'TestAsync|TestFloat32|TestNearFar|TestMinProgramsAllModesAllShapes|TestOperator|TestPartitionedBC|TestSumProgramsAllModesAllShapes|TestDeviceLoop|TestSparseLoopOnce' -test.skip 'TestOperatorAppsOnDatasets' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/tests.txt | head -30
[ -f /tmp/g2048.mgb ] || /tmp/b10/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
[ -f /tmp/r21.mgb ] || /tmp/b10/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r21.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
G=/tmp/g2048.mgb; S="--source 2098176"
for r in 1 2; do
 one b10 sssp $G "$S $( [ $r = 1 ] && echo --validate )"
 one b11 sssp $G "$S $( [ $r = 1 ] && echo --validate )"
 one b11 sssp $G "$S --gpu-async-blocks 3"

 one k256 sssp $G "$S"; one k256 sssp $G "$S --gpu-async-blocks 3"
 one b11 sssp $G "$S --gpu-near-far 1024"; one b11 sssp $G "$S --gpu-near-far 1024 --gpu-async-blocks 3"
done
for bl in 2 3; do
 one b11 bfs $G "$S --mode async --gpu-async-blocks $bl"
 one b11 bc $G "$S --mode async --gpu-async-blocks $bl"
 one b11 sssp $X "--source 0 --weights 7 --gpu-async-blocks $bl"
 one b11 sssp /tmp/r21.mgb "--source 0 --mode async --gpu-async-blocks $bl"
 one b11 cc $G "--mode async --gpu-async-blocks $bl"
 one b11 bfs /tmp/r21.mgb "--source 0 --mode async --gpu-async-blocks $bl"
done
echo "done $(t)"

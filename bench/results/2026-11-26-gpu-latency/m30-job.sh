#!/usr/bin/env bash
# one GPU: shared-memory addressing without local arrays (b10: block cache, cluster slots, async piles, sparse loop piles; also the back pass reorder) against b7
A=/tmp/mgA; B=/tmp/mgB; L=/tmp/m30logs; mkdir -p $A $B $L
xz -dc .device-carry/b7/mgraph.xz > $A/mgraph; for f in .device-carry/b10/*.xz; do xz -dc $f > $B/$(basename $f .xz); done; chmod +x $A/* $B/*
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 $B/gpu.test -test.count=1 -test.v -test.run 'TestBlock|TestCluster|TestAsync|TestFloat32SSSP|TestDeviceLoop|TestSparseLoopOnce|TestSumLoopOnce|TestSumDeviceLoop|TestLoopGrid|TestNearFarDelta|TestMinProgramsAllModesAllShapes|TestSumProgramsAllModesAllShapes|TestMinProgramsOnDatasets' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/tests.txt | head -30
$A/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
$A/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
$A/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r21.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
run() { echo "r$1 $2 $3 $(basename $4) $6: $($5/mgraph run $3 $4 --backend cuda --trials $7 $6 $( [ $1 = 1 ] && echo --validate ) 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|validation took [0-9.]+ ms' | tr '\n' ' ')"; }
echo "gen ($(t))"
for round in 1 2; do for M in A B; do D=/tmp/mg$M
 run $round $M bfs $X $D "--source 0" 20
 run $round $M bc $X $D "--source 0" 20
 run $round $M sssp $X $D "--source 0 --weights 7" 20
 run $round $M bfs /tmp/g2048.mgb $D "--source 2098176" 8
 run $round $M sssp /tmp/g2048.mgb $D "--source 2098176" 8
 run $round $M bc /tmp/g2048.mgb $D "--source 2098176" 8
 run $round $M bfs /tmp/g1024.mgb $D "--source 524800" 8
 run $round $M bc /tmp/g1024.mgb $D "--source 524800" 8
 run $round $M sssp /tmp/r21.mgb $D "--source 0 --mode async" 8
done; done
echo "done $(t)"

#!/usr/bin/env bash
# one GPU: b19 (row width + BFS past the block goes async, no cluster BFS) against 14265b8 (b13): tests, sanitizer, A/B
L=/tmp/m44logs; mkdir -p $L
for d in b13 b19; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b19/gpu.test.xz > /tmp/b19/gpu.test; chmod +x /tmp/b19/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 240 /tmp/b19/gpu.test -test.count=1 -test.v -test.run 'TestAsync|TestFloat32|TestNearFar|TestMinPrograms|TestBC|TestBlock|TestCluster|TestSumPrograms|TestDeviceLoop' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal|Error Trace" $L/tests.txt | head -30
(cd gpu && timeout 150 compute-sanitizer --tool memcheck /tmp/b19/gpu.test -test.count=1 -test.run 'TestAsyncOnce|TestFloat32SSSPVariants|TestClusterRuns' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"
for s in 1024 2048 4096; do [ -f /tmp/g$s.mgb ] || /tmp/b19/mgraph gen grid:$s:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g$s.mgb > /dev/null 2>&1; done
[ -f /tmp/r21.mgb ] || /tmp/b19/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r21.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|validation [a-z]+' | tr '\n' ' ')"; }
for r in 1 2; do V=$( [ $r = 1 ] && echo --validate )
 for d in b13 b19; do
  for g in "2048 2098176" "1024 524800"; do set -- $g; G=/tmp/g$1.mgb; S="--source $2"
   one $d bfs $G "$S $V"; one $d sssp $G "$S $V"; one $d bc $G "$S $V"; one $d cc $G "$V"
  done
  for a in bfs sssp bc cc; do one $d $a $X "--source 0 --weights 7 $V"; done
  one $d bfs /tmp/r21.mgb "--source 0 $V"; one $d sssp /tmp/r21.mgb "--source 0 $V"
 done
done
for d in b13 b19; do for a in bfs sssp bc; do one $d $a /tmp/g4096.mgb "--source 8390656 --trials 4"; done; done
echo "done $(t)"

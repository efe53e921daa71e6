#!/usr/bin/env bash
# one GPU: the hybrid explores a frontier far past its model's reference step (b23) against eed2e81 (b22)
L=/tmp/m51logs; mkdir -p $L
for d in b22 b23; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b23/gpu.test.xz > /tmp/b23/gpu.test; chmod +x /tmp/b23/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 240 /tmp/b23/gpu.test -test.count=1 -test.v -test.run 'TestBFSPullSteps|TestMinProgramsAllModesAllShapes|TestMinProgramsOnDatasets|TestDeviceLoop|TestSumProgramsAllModesAllShapes|TestSumProgramsOnDatasets|TestDecideExplores|TestPullMinArcs|TestBCAuto' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
/tmp/b22/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
/tmp/b22/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r21u.mgb > /dev/null 2>&1
/tmp/b22/mgraph gen kron:22:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/k22.mgb > /dev/null 2>&1
/tmp/b22/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
D=.device-carry/datasets
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
for r in 1 2; do V=$([ $r = 1 ] && echo --validate)
 for d in b22 b23; do
  for s in 15455 12302 13399; do one $d bfs $D/uk-2007-05_100000.mtx.zst "--trials 20 --source $s"; done
  one $d bfs $D/uk-2007-05_100000.mtx.zst "--trials 8 --sources 8 $V"
  one $d bfs $D/cit-HepPh.mtx.zst "--trials 8 --sources 8 $V"
  one $d bfs /tmp/r21d.mgb "--trials 8 --sources 8 $V"
  one $d bfs /tmp/r21u.mgb "--trials 8 --sources 8 $V"
  one $d sssp /tmp/r21u.mgb "--trials 8 --sources 8 $V"
  one $d bfs /tmp/k22.mgb "--trials 8 --sources 8 $V"
  one $d sssp /tmp/k22.mgb "--trials 8 --sources 8 $V"
  one $d sssp /tmp/g2048.mgb "--trials 8 --source 2098176 $V"
  one $d bfs $D/luxembourg_osm.mtx.zst "--trials 20 --source 0 $V"
 done
 one b23 bfs $D/uk-2007-05_100000.mtx.zst "--trials 8 --sources 8 --no-pull"
 for m in hybrid dense sparse; do one b23 sssp /tmp/r21u.mgb "--trials 8 --sources 8 --mode $m"; done
done
echo "done $(t)"

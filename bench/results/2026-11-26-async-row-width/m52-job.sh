#!/usr/bin/env bash
# one GPU: the pull bound from pulls that lost to their push estimate (b24) against d61ee2e (b23)
L=/tmp/m52logs; mkdir -p $L
for d in b23 b24; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b24/gpu.test.xz > /tmp/b24/gpu.test; chmod +x /tmp/b24/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 150 /tmp/b24/gpu.test -test.count=1 -test.v -test.run 'TestBFSPullSteps|TestBuildInMatchesHost|TestMinProgramsAllModesAllShapes|TestMinProgramsOnDatasets|TestDeviceLoop|TestPullMinArcs|TestDecideExplores|TestModePull' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
/tmp/b23/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
/tmp/b23/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r21u.mgb > /dev/null 2>&1
/tmp/b23/mgraph gen kron:22:16 --symmetrize --dedupe --drop-self-loops -o /tmp/k22.mgb > /dev/null 2>&1
D=.device-carry/datasets
one() { echo "$1 $(basename $2) $3: $(/tmp/$1/mgraph run bfs $2 --backend cuda $3 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
for r in 1 2; do V=$([ $r = 1 ] && echo --validate)
 for G in $D/uk-2007-05_100000.mtx.zst $D/cit-HepPh.mtx.zst /tmp/r21d.mgb /tmp/r21u.mgb /tmp/k22.mgb; do
  for d in b23 b24; do one $d $G "--trials 8 --sources 8 $V"; done; one b24 $G "--trials 8 --sources 8 --no-pull"
 done
 for s in 15455 12302; do for d in b23 b24; do one $d $D/uk-2007-05_100000.mtx.zst "--trials 20 --source $s"; done; done
done
echo "done $(t)"

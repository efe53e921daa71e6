#!/usr/bin/env bash
# one GPU: the pull steps' measured cost bound (b22) against 39816bb (b21): BFS with pull vs push-only
L=/tmp/m50logs; mkdir -p $L
for d in b21 b22; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
xz -dc .device-carry/b22/gpu.test.xz > /tmp/b22/gpu.test; chmod +x /tmp/b22/gpu.test
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 /tmp/b22/gpu.test -test.count=1 -test.v -test.run 'TestBFSPullSteps|TestBuildInMatchesHost|TestMinProgramsAllModesAllShapes|TestMinProgramsOnDatasets|TestModePull|TestDeviceLoop|TestPullMinArcs|TestSteppers' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
/tmp/b21/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
/tmp/b21/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r21u.mgb > /dev/null 2>&1
/tmp/b21/mgraph gen kron:22:16 --symmetrize --dedupe --drop-self-loops -o /tmp/k22.mgb > /dev/null 2>&1
D=.device-carry/datasets
one() { echo "$1 $(basename $2) $3: $(/tmp/$1/mgraph run bfs $2 --backend cuda $3 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
for r in 1 2; do
 for g in "$D/uk-2007-05_100000.mtx.zst 15455 12302 13399" "$D/cit-HepPh.mtx.zst 16321 33273"; do set -- $g; G=$1; shift
  for s in "$@"; do for d in b21 b22; do one $d $G "--trials 20 --source $s"; done; one b22 $G "--trials 20 --source $s --no-pull"; done
 done
 for G in /tmp/r21d.mgb /tmp/r21u.mgb /tmp/k22.mgb $D/uk-2007-05_100000.mtx.zst $D/cit-HepPh.mtx.zst; do
  V=$([ $r = 1 ] && echo --validate)
  for d in b21 b22; do one $d $G "--trials 8 --sources 8 $V"; done; one b22 $G "--trials 8 --sources 8 --no-pull"
 done
done
echo "done $(t)"

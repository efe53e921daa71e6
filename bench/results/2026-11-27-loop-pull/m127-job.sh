#!/usr/bin/env bash
# one GPU. b89: in-loop pulls by default, dropped for the backend once a pull step costs more than the push model's estimate; vs --gpu-no-loop-pull and --no-pull.
L=/tmp/m127logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 240 $B/gpu.test -test.count=1 -test.v -test.run 'TestBFSPullSteps|TestDeviceLoop|TestBFSDepthLimit|TestMinProgramsAllModesAllShapes|TestPullMinArcs' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
$B/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r21u.mgb > /dev/null 2>&1
$B/mgraph gen kron:22:16 --symmetrize --dedupe --drop-self-loops -o /tmp/k22.mgb > /dev/null 2>&1
pass=0; fail=0
for i in 1 2; do for d in /tmp/ds3/*.mtx.zst /tmp/r21d.mgb /tmp/r21u.mgb; do n=$(basename $d | cut -d. -f1)
  timeout 90 $B/mgraph run bfs $d --backend cuda --sources 8 --seed $i --trials 2 --validate --cache-dir /tmp/c > $L/v-$n-$i.txt 2>&1
  if [ $? = 0 ] && grep -q 'validation: ok' $L/v-$n-$i.txt && ! grep -q FAILED $L/v-$n-$i.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $n $i: $(grep -m1 FAILED $L/v-$n-$i.txt)"; fi
done; done; echo "validate ($(t)): pass $pass fail $fail"
one() { local tag=$1; shift; timeout 120 $B/mgraph run bfs "$@" --backend cuda --cache-dir /tmp/c > $L/$tag.txt 2>&1; echo "$tag: $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s' $L/$tag.txt)"; }
D=/tmp/ds3
for r in 1 2; do
 for s in 15455 12302; do for m in loop host push; do F=$([ $m = host ] && echo --gpu-no-loop-pull; [ $m = push ] && echo --no-pull)
   one uk-$s-$m-$r $D/uk-2007-05_100000.mtx.zst --trials 20 --source $s $F $([ $m = loop ] && [ $r = 1 ] && echo "--trace $L/tr-uk-$s.json"); done; done
 for G in /tmp/r21d.mgb /tmp/r21u.mgb /tmp/k22.mgb $D/uk-2007-05_100000.mtx.zst $D/cit-HepPh.mtx.zst; do n=$(basename $G | cut -d. -f1)
  for m in loop host push; do F=$([ $m = host ] && echo --gpu-no-loop-pull; [ $m = push ] && echo --no-pull)
   one $n-8-$m-$r $G --trials 8 --sources 8 $F; done
 done
done
echo "done $(t)"

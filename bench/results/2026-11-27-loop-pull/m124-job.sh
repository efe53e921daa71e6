#!/usr/bin/env bash
# one GPU. HEAD (b86: in-loop pull opt-in, --gpu-loop-pull): the whole GPU suite; default BFS/SSSP against b82 (before the loop changes); --gpu-loop-pull validated on the datasets.
L=/tmp/m124logs; mkdir -p $L /tmp/mg82; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
xz -dc .device-carry/b82/mgraph.xz > /tmp/mg82/mgraph; chmod +x /tmp/mg82/mgraph
nvidia-smi --query-gpu=name --format=csv,noheader
(cd /tmp && timeout 540 $B/gpu.test -test.v > $L/gpu-tests.txt 2>&1); rc=$?
echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -8 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt) skipped: $(grep -c -- '--- SKIP' $L/gpu-tests.txt)"
$B/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/r21u.mgb > /dev/null 2>&1
$B/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
pass=0; fail=0
for d in /tmp/ds3/*.mtx.zst /tmp/r21d.mgb; do n=$(basename $d | cut -d. -f1)
  timeout 90 $B/mgraph run bfs $d --backend cuda --gpu-loop-pull --sources 4 --trials 2 --validate --cache-dir /tmp/c > $L/v-$n.txt 2>&1
  if [ $? = 0 ] && grep -q 'validation: ok' $L/v-$n.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $n"; fi
done; echo "validate --gpu-loop-pull ($(t)): pass $pass fail $fail"
one() { local tag=$1; shift; timeout 120 "$@" --backend cuda --cache-dir /tmp/c > $L/$tag.txt 2>&1; echo "$tag: $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s' $L/$tag.txt)"; }
for r in 1 2; do for b in 82 86; do M=/tmp/mgbin/mgraph; [ $b = 82 ] && M=/tmp/mg82/mgraph
  one r21u-bfs-b$b-$r $M run bfs /tmp/r21u.mgb --trials 8 --sources 8
  one r21d-bfs-b$b-$r $M run bfs /tmp/r21d.mgb --trials 8 --sources 8
  one r21u-sssp-b$b-$r $M run sssp /tmp/r21u.mgb --trials 8 --sources 4
  one g1024-bfs-b$b-$r $M run bfs /tmp/g1024.mgb --mode hybrid --trials 8
  one uk-bfs-b$b-$r $M run bfs /tmp/ds3/uk-2007-05_100000.mtx.zst --trials 8 --sources 8
done; done
echo "done $(t)"

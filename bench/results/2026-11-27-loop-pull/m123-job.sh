#!/usr/bin/env bash
# one GPU. b85: in-loop pull, lanes alone on short rows, the warp on longer ones, heavy rows cut into chunks over the grid; vs host pulls and push-only.
L=/tmp/m123logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 240 $B/gpu.test -test.count=1 -test.v -test.run 'TestBFSPullSteps|TestDeviceLoop|TestBFSDepthLimit' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/tests.txt | head -20
$B/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r21u.mgb > /dev/null 2>&1
$B/mgraph gen kron:22:16 --symmetrize --dedupe --drop-self-loops -o /tmp/k22.mgb > /dev/null 2>&1
D=/tmp/ds3
one() { local tag=$1; shift; timeout 120 $B/mgraph run bfs "$@" --backend cuda --cache-dir /tmp/c > $L/$tag.txt 2>&1; echo "$tag: $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' $L/$tag.txt | tr '\n' ' ')"; }
for r in 1 2; do
 for s in 15455 12302; do
   one uk-$s-loop-$r $D/uk-2007-05_100000.mtx.zst --trials 20 --source $s $([ $r = 1 ] && echo "--validate --trace $L/tr-uk-$s.json")
   one uk-$s-host-$r $D/uk-2007-05_100000.mtx.zst --trials 20 --source $s --gpu-no-loop-pull
   one uk-$s-push-$r $D/uk-2007-05_100000.mtx.zst --trials 20 --source $s --no-pull
 done
 for G in /tmp/r21d.mgb /tmp/r21u.mgb /tmp/k22.mgb $D/uk-2007-05_100000.mtx.zst $D/cit-HepPh.mtx.zst; do n=$(basename $G | cut -d. -f1)
  V=$([ $r = 1 ] && echo --validate)
  one $n-8-loop-$r $G --trials 8 --sources 8 $V
  one $n-8-host-$r $G --trials 8 --sources 8 --gpu-no-loop-pull
  one $n-8-push-$r $G --trials 8 --sources 8 --no-pull
 done
done
echo "done $(t)"

#!/usr/bin/env bash
# one GPU. b91: in-loop pulls only on layouts of at most 32K vertices per SM; auto against hybrid and b82 (before) on R-MAT 21, Kronecker 24, uk-2007, directed R-MAT 21.
L=/tmp/m130logs; mkdir -p $L /tmp/mg82; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
xz -dc .device-carry/b82/mgraph.xz > /tmp/mg82/mgraph; chmod +x /tmp/mg82/mgraph
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 $B/gpu.test -test.count=1 -test.v -test.run 'TestBFSPullSteps|TestPullMinArcs|TestDeviceLoop' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/tests.txt | head
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/r21.mgb > /dev/null 2>&1
$B/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > /dev/null 2>&1
$B/mgraph gen kron:24:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/k24.mgb > /dev/null 2>&1; echo "gen ($(t))"
one() { local tag=$1; shift; timeout 120 "$@" --backend cuda --cache-dir /tmp/c > $L/$tag.txt 2>&1; echo "$tag: $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' $L/$tag.txt | tr '\n' ' ')"; }
for g in r21 k24 r21d; do one val-$g $B/mgraph run bfs /tmp/$g.mgb --mode auto --sources 4 --trials 2 --validate; done
for i in 1 2; do
  for g in r21 k24; do
    one $g-auto-b82-$i /tmp/mg82/mgraph run bfs /tmp/$g.mgb --mode auto --trials 8
    for m in auto hybrid; do one $g-$m-$i $B/mgraph run bfs /tmp/$g.mgb --mode $m --trials 8; done
  done
  one r21d-8-auto-b82-$i /tmp/mg82/mgraph run bfs /tmp/r21d.mgb --trials 8 --sources 8
  one r21d-8-auto-$i $B/mgraph run bfs /tmp/r21d.mgb --trials 8 --sources 8
  one uk-12302-b82-$i /tmp/mg82/mgraph run bfs /tmp/ds3/uk-2007-05_100000.mtx.zst --trials 20 --source 12302
  one uk-12302-$i $B/mgraph run bfs /tmp/ds3/uk-2007-05_100000.mtx.zst --trials 20 --source 12302
  one uk-12302-push-$i $B/mgraph run bfs /tmp/ds3/uk-2007-05_100000.mtx.zst --trials 20 --source 12302 --no-pull
done
echo "done $(t)"

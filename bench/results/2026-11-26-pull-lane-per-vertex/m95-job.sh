#!/usr/bin/env bash
# one GPU. b59 (pull kernel: a thread per vertex filters) against b58 (ad39d55) on the graphs of issue 18's pull bars;
# then gpu.test TestPartitioned* -test.v (the host-side refactors 485a2ac..ad39d55, never run whole on a GPU).
B=/tmp/mgbin; O=/tmp/b58; L=/tmp/m95logs; mkdir -p $L $O; xz -dc .device-carry/b58/mgraph.xz > $O/mgraph; chmod +x $O/mgraph
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 120 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-200 | tr '\n' '|')"; }
$B/mgraph gen kron:24:16 --symmetrize --dedupe --drop-self-loops -o /tmp/k24.mgb > $L/gen-k24.txt 2>&1
$B/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > $L/gen-r21d.txt 2>&1; echo "gen ($(t))"
for i in 1 2; do for v in $O $B; do tg=$(basename $v)
 for m in auto pull; do r k24-$m-$tg-$i $v/mgraph run bfs /tmp/k24.mgb --backend cuda --mode $m --trials 6 --cache-dir /tmp/c; done
 for g in /tmp/r21d.mgb /tmp/datasets/uk-2007-05_100000.mtx.zst /tmp/datasets/cit-HepPh.mtx.zst; do n=$(basename $g | cut -d. -f1)
  r $n-auto-$tg-$i $v/mgraph run bfs $g --backend cuda --trials 6 --cache-dir /tmp/c
  [ $v = $B ] && r $n-nopull-$tg-$i $v/mgraph run bfs $g --backend cuda --trials 6 --cache-dir /tmp/c --no-pull
 done; done
 for m in hybrid dense sparse async; do r k24-$m-mgbin-$i $B/mgraph run bfs /tmp/k24.mgb --backend cuda --mode $m --trials 6 --cache-dir /tmp/c; done
done
r k24-val $B/mgraph run bfs /tmp/k24.mgb --backend cuda --mode pull --trials 2 --cache-dir /tmp/c --validate
r r21d-val $B/mgraph run bfs /tmp/r21d.mgb --backend cuda --trials 2 --cache-dir /tmp/c --validate
(cd /tmp && timeout 420 $B/gpu.test -test.v -test.timeout 9m -test.run 'TestPartitioned' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages|panic' $L/gpu-tests.txt | head -30 | cut -c1-200 | tr '\n' '|')"
echo "done $(t)"

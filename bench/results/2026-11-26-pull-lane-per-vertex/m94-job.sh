#!/usr/bin/env bash
# b59 (= ad39d55 + the pull kernel's thread-per-vertex filter) against b58 (ad39d55): BFS pull steps on one GPU and over two.
B=/tmp/mgbin; O=/tmp/b58; L=/tmp/m94logs; mkdir -p $L $O; xz -dc .device-carry/b58/mgraph.xz > $O/mgraph; chmod +x $O/mgraph
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; local bin=$2; shift 2; timeout 300 $bin "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|last trial|validation|ERROR SUMMARY' $L/$tag.txt | cut -c1-300 | tr '\n' '|')"; }
[ -f /tmp/r25.mgb ] || $B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1 &
export CUDA_VISIBLE_DEVICES=0
for g in "rmat:14:16 --undirected" "rmat:14:16"; do tag=$(echo $g | tr -d ' :-'); r san-$tag compute-sanitizer --tool memcheck $B/mgraph run bfs $g --backend cuda --validate --no-cache --trials 2; done
r san-parts compute-sanitizer --tool memcheck $B/mgraph run bfs rmat:14:16 --undirected --backend cuda --parts 3 --gpu-part-pull --validate --no-cache --trials 2
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'TestBFSPullSteps|TestModePull|TestPullMatchesCPU|TestPullMinArcs|TestPartitionedBFSPulls|TestBFSDepthLimit' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -12 | cut -c1-200 | tr '\n' '|')"
for d in /tmp/datasets/*.mtx.zst; do r val-$(basename $d .mtx.zst) $B/mgraph run bfs $d --backend cuda --validate --no-cache --trials 3 --source 1; done
unset CUDA_VISIBLE_DEVICES; wait; echo "gen ($(t))"
r val25 $B/mgraph run bfs /tmp/r25.mgb --backend cuda --trials 2 --source 1 --cache-dir /tmp/c --validate
for i in 1 2; do for v in $O/mgraph $B/mgraph; do tg=$(basename $(dirname $v)); r bfs1-$tg-$i $v run bfs /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c --trace $L/bfs1-$tg-$i.json; done
 for v in $O/mgraph $B/mgraph; do tg=$(basename $(dirname $v)); r bfs2-pull-$tg-$i $v run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --gpu-part-pull --trace $L/bfs2-pull-$tg-$i.json; done
 r bfs2-push-mgbin-$i $B/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --trace $L/bfs2-push-$i.json; done
r val25-2 $B/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 2 --source 1 --cache-dir /tmp/c --gpu-part-pull --validate
echo "done $(t)"

#!/usr/bin/env bash
# two GPUs. b61 (device parts pull by default; a pull superstep skips packaging and the exchange) against b60 (--gpu-part-pull, the old pull superstep).
B=/tmp/mgbin; L=/tmp/m97logs; mkdir -p $L /tmp/b60; xz -dc .device-carry/b60/mgraph.xz > /tmp/b60/mgraph; chmod +x /tmp/b60/mgraph
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 120 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s' $L/$tag.txt) $(grep -E 'rror|last trial|validation|ERROR SUMMARY' $L/$tag.txt | cut -c1-330 | tr '\n' '|')"; }
[ -f /tmp/r25.mgb ] || $B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1 &
for a in bfs bfs-tree; do CUDA_VISIBLE_DEVICES=0 r san-$a compute-sanitizer --tool memcheck $B/mgraph run $a rmat:14:16 --undirected --backend cuda --parts 3 --validate --no-cache --trials 2; done
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'TestPartitionedBFSPulls|TestPartitionedRuns$|TestPartitionedRunsNCCL' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages|pulled' $L/gpu-tests.txt | head -12 | cut -c1-200 | tr '\n' '|')"
pass=0; fail=0
v() { local tag=$1; shift; timeout 90 "$@" > $L/$tag.txt 2>&1; local rc=$?
  if [ $rc = 0 ] && grep -q 'validation: ok' $L/$tag.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $tag rc=$rc: $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-160 | head -2 | tr '\n' '|')"; fi; }
for cfg in "--gpus 2" "--backend cuda --parts 3"; do c=$(echo $cfg | tr -d ' -'); for d in /tmp/datasets/*.mtx.zst; do for a in bfs bfs-tree; do
 v $c-$(basename $d .mtx.zst)-$a $B/mgraph run $a $d $cfg --partition random --trials 2 --validate --no-cache --source 1; done; done; done
echo "datasets ($(t)): pass $pass fail $fail; pulled in: $(grep -l 'pulled' $L/gpus2-*.txt $L/backendcudaparts3-*.txt 2>/dev/null | wc -l) runs"
v r22-tree $B/mgraph run bfs-tree rmat:22:16 --undirected --gpus 2 --partition random --trials 2 --validate --no-cache --source 1; echo "r22 tree: pass $pass fail $fail"
wait; echo "gen ($(t))"
for i in 1 2; do
 r bfs2-old-$i /tmp/b60/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --gpu-part-pull
 r bfs2-new-$i $B/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --trace $L/bfs2-new-$i.json
 r bfs2-nopull-$i $B/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --no-pull
 r bfs1-$i $B/mgraph run bfs /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c
done
r tree2 $B/mgraph run bfs-tree /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c
r tree1 $B/mgraph run bfs-tree /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c
r val25 $B/mgraph run bfs /tmp/r25.mgb --gpus 2 --partition random --trials 1 --source 1 --cache-dir /tmp/c --validate
echo "done $(t)"

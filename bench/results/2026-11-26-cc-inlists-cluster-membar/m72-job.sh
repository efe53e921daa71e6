#!/usr/bin/env bash
# FIRST THING next lease. Two or four GPUs (G = all of them). b43 = 20653ea (carry b42, m72.sh, m72-job.sh, poll.sh, unpack.sh, datasets):
# validates the device parts' in-lists hooking (60a5572, never run on a GPU), then CC by hooking over 1/2/G GPUs against cc-lp
# on R-MAT 25, a grid and luxembourg_osm, a traced BFS, and the PR overlap A/B at G GPUs.
cp .device-carry/datasets/luxembourg_osm.mtx.zst /tmp/lux.mtx.zst 2>/dev/null; B=/tmp/mgbin; L=/tmp/m72logs; mkdir -p $L; G=$(nvidia-smi -L | wc -l)
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/mgraph run cc rmat:14:16 --undirected --parts 3 --backend cuda --validate --no-cache --trials 2 > $L/sanitizer.txt 2>&1); echo "memcheck cc 3 parts ($(t)) rc=$?: $(grep -E 'ERROR SUMMARY|validation' $L/sanitizer.txt | tr '\n' '|')"
(cd /tmp && timeout 200 $B/gpu.test -test.run 'TestPartitionedRuns$|TestPartitionedRunsNCCL' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL|PASS)' $L/gpu-tests.txt | tr '\n' '|')"
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ m?s, median [0-9.]+ m?s' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-300 | tr '\n' '|')"; }
for app in cc cc-lp; do r $app-22-$G $app rmat:22:16 --undirected --gpus $G --partition random --trials 3 --validate --no-cache; done
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r cc-1 cc /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c
for g in 2 $G; do r cc-$g cc /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c; r cc-lp-$g cc-lp /tmp/r25.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c; done
r cc-2-val cc /tmp/r25.mgb --gpus 2 --partition random --trials 1 --cache-dir /tmp/c --validate
for g in grid:2048 /tmp/lux.mtx.zst; do for app in cc cc-lp; do r $app-$(basename $g)-2 $app $g --gpus 2 --partition random --trials 3 --validate --no-cache; done; r cc-$(basename $g)-2-auto cc $g --gpus 2 --trials 3 --validate --no-cache; r cc-$(basename $g)-1 cc $g --backend cuda --trials 3 --no-cache; done
r bfs-2-trace bfs /tmp/r25.mgb --gpus 2 --partition random --trials 4 --source 1 --cache-dir /tmp/c --trace $L/bfs-2-trace.json
if [ $G -gt 2 ]; then for i in 1 2; do r pr-$G-$i pr /tmp/r25.mgb --gpus $G --partition random --trials 8 --cache-dir /tmp/c; r pr-$G-overlap-$i pr /tmp/r25.mgb --gpus $G --partition random --trials 8 --cache-dir /tmp/c --gpu-overlap; done; fi
echo "done $(t)"

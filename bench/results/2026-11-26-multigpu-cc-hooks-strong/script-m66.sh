#!/usr/bin/env bash
# four GPUs (background job), for the session after 2026-11-26 15:20 (b36 = HEAD 6021c34; carry .device-carry/b36): the phase timers on GPUs,
# strong scaling of every partitioned app on R-MAT 25 with the PR apply fix (1, 2, 4 GPUs), (the graph larger than one GPU is m68). Poll it with a second call if it runs past 10 minutes.
B=/tmp/mgbin; L=/tmp/m66logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
(cd /tmp && timeout 200 $B/gpu.test -test.run 'TestPartitionedBFSPulls|TestPartitionedPageRank|TestPartitionedRuns$|TestPartitionedRunsNCCL' -test.v > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)) rc=$?: $(grep -E '^(--- |ok|FAIL)' $L/gpu-tests.txt | tr '\n' '|')"
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|first trial|last trial|validation' $L/$tag.txt | cut -c1-400 | tr '\n' '|')"; }
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r25w.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
for app in pr bfs bfs-tree sssp cc; do
  r $app-1 $app /tmp/r25w.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c
  for g in 2 4; do r $app-$g $app /tmp/r25w.mgb --gpus $g --partition random --trials 8 --source 1 --cache-dir /tmp/c; done
done
for g in 4; do for i in 1 2; do r bfs-$g-pull-$i bfs /tmp/r25w.mgb --gpus $g --partition random --trials 8 --source 1 --cache-dir /tmp/c --gpu-part-pull; r bfs-$g-push-$i bfs /tmp/r25w.mgb --gpus $g --partition random --trials 8 --source 1 --cache-dir /tmp/c; done; done
r bfs-22-pull-val bfs rmat:22:16 --undirected --gpus 2 --partition random --trials 2 --validate --no-cache --gpu-part-pull
r bfs-tree-22-pull-val bfs-tree rmat:22:16 --undirected --gpus 2 --partition random --trials 2 --validate --no-cache --gpu-part-pull
for g in 2 4; do r pr-$g-overlap pr /tmp/r25w.mgb --gpus $g --partition random --trials 8 --cache-dir /tmp/c --gpu-overlap; done
for app in pr bfs bfs-tree sssp cc; do r $app-22-val $app rmat:22:16 --undirected --weights 7 --gpus 4 --partition random --trials 2 --validate --no-cache; done
NS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems*/bin/nsys 2>/dev/null | head -1); echo "nsys: $NS"
if [ -n "$NS" ]; then (cd /tmp && timeout 120 $NS profile -t cuda,nvtx -o /tmp/bfs2 -f true $B/mgraph run bfs /tmp/r25w.mgb --gpus 2 --partition random --trials 4 --source 1 --cache-dir /tmp/c > $L/nsys-run.txt 2>&1; timeout 120 $NS stats -r cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,nvtx_sum -f csv -o $L/bfs2 /tmp/bfs2.nsys-rep > $L/nsys-stats.txt 2>&1; timeout 60 $NS stats -r cuda_gpu_trace,cuda_api_trace -f csv -o $L/bfs2 /tmp/bfs2.nsys-rep >> $L/nsys-stats.txt 2>&1; xz -T4 $L/bfs2_cuda_*trace.csv); echo "nsys ($(t))"; fi
echo "done $(t)"

#!/usr/bin/env bash
# b58 (= ad39d55): where BFS's time goes on R-MAT 25, one GPU against two (push, and --gpu-part-pull), with --trace.
B=/tmp/mgbin; L=/tmp/m93logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c; nvidia-smi topo -m > $L/topo.txt 2>&1
r() { local tag=$1; shift; timeout 300 $B/mgraph run "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'rror|last trial|validation' $L/$tag.txt | cut -c1-400 | tr '\n' '|')"; }
[ -f /tmp/r25.mgb ] || $B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r bfs-1 bfs /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c --trace $L/bfs-1.json
r bfs-2 bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --trace $L/bfs-2.json
r bfs-2-pull bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 1 --cache-dir /tmp/c --gpu-part-pull --trace $L/bfs-2-pull.json
r bfs-1-push bfs /tmp/r25.mgb --backend cuda --trials 8 --source 1 --cache-dir /tmp/c --mode sparse --trace $L/bfs-1-sparse.json
echo "done $(t)"

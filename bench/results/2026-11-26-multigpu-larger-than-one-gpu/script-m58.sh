#!/usr/bin/env bash
# four GPUs (background job): parts' heavy threshold sweep for PR and BFS on R-MAT 25 over 2 GPUs (and 4), one GPU as the baseline
B=/tmp/mgbin; L=/tmp/m58logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 600 $B/mgraph run "$@" --cache-dir /tmp/c > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'partitioning:|rror|last trial' $L/$tag.txt | cut -c1-230 | tr '\n' '|')"; }
$B/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
r pr-1 pr /tmp/r25.mgb --backend cuda --trials 8
for ht in 18432 9216 4608; do
  r pr-2-$ht pr /tmp/r25.mgb --gpus 2 --partition random --trials 8 --heavy-threshold $ht
  r bfs-2-$ht bfs /tmp/r25.mgb --gpus 2 --partition random --trials 8 --source 0 --heavy-threshold $ht
done
echo "done $(t)"

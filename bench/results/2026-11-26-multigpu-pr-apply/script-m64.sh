#!/usr/bin/env bash
# one GPU (background job): every kernel of a part's PageRank iteration (R-MAT 25, 2 parts on the GPU, peer copies),
# b29 (apply over owned ids in original order) against b30 (ascending layout ids)
L=/tmp/m64logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
/tmp/mgb30/mgraph gen rmat:25:16 --symmetrize --dedupe --drop-self-loops -o /tmp/r25.mgb > $L/gen25.txt 2>&1; echo "gen ($(t))"
/tmp/mgb30/mgraph run pr /tmp/r25.mgb --backend cuda --parts 2 --partition random --trials 1 --cache-dir /tmp/c > $L/prep.txt 2>&1; echo "prep ($(t))"
for b in b29 b30; do
  timeout 150 ncu --launch-skip 40 --launch-count 60 --section SpeedOfLight --print-summary per-kernel /tmp/mg$b/mgraph run pr /tmp/r25.mgb --backend cuda --parts 2 --partition random --trials 1 --cache-dir /tmp/c > $L/ncu-$b.txt 2>&1; echo "ncu-$b ($(t)) rc=$?"
done
echo "done $(t)"

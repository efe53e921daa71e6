#!/usr/bin/env bash
# one GPU (b21 = 39816bb): the 4096 grid (16.8M vertices) side by side with GAPBS on 16 threads
L=/tmp/m47logs; mkdir -p $L; B=/tmp/b21; mkdir -p $B
xz -dc .device-carry/b21/mgraph.xz > $B/mgraph; chmod +x $B/mgraph
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --out /tmp/sbs4 --graphs grid:4096:0.1@8390656 --apps bfs,sssp,bc --mode auto --threads 16 --trials 5 --timeout 200 > $L/sbs.txt 2>&1
echo "side-by-side ($(t)):"; cat /tmp/sbs4/table.md; cp /tmp/sbs4/table.md /tmp/sbs4/results.tsv /tmp/sbs4/env.txt $L/ 2>/dev/null
echo "done $(t)"

#!/usr/bin/env bash
# one H100 (issue 18's card). The 2048 grid side by side with GAPBS at 16 threads, mgraph auto at HEAD (b70 = 24f6ae3's binary; 3eb9002's model).
L=/tmp/m107logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c; nproc
timeout 500 bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --graphs grid:2048:0.1 --apps bfs,sssp,bc --mode auto --threads 16 --out /tmp/sbs --cache > $L/sbs.txt 2>&1
echo "rc $? ($(( $(date +%s)-T0 ))s)"; cp /tmp/sbs/table.md /tmp/sbs/results.tsv /tmp/sbs/env.txt $L/ 2>/dev/null; tail -12 $L/sbs.txt

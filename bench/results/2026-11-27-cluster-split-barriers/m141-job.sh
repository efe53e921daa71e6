#!/usr/bin/env bash
# one H100 (issue 18's card). b100 (HEAD: the cluster's Brandes with split barriers) against b92 (6e009a5): the 2048 grid's BC side by side with GAPBS 16T.
L=/tmp/m141logs; mkdir -p $L /tmp/mg92; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
xz -dc .device-carry/b92/mgraph.xz > /tmp/mg92/mgraph; chmod +x /tmp/mg92/mgraph
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c; nproc
timeout 400 bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --graphs grid:2048:0.1 --apps bc --mode auto --threads 16 --out /tmp/sbs --cache > $L/sbs.txt 2>&1
echo "sbs rc $? ($(t))"; cp /tmp/sbs/table.md /tmp/sbs/results.tsv /tmp/sbs/env.txt $L/ 2>/dev/null; grep "^| grid" $L/table.md
G=$(ls /tmp/sbs/data/*.mgb 2>/dev/null | head -1); echo "graph file: $G"
if [ -n "$G" ]; then for r in 1 2; do for M in $B/mgraph /tmp/mg92/mgraph; do
  echo "$M r=$r: $(timeout 60 $M run bc $G --source 2098176 --backend cuda --trials 8 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"; done; done; fi
echo "done $(t)"

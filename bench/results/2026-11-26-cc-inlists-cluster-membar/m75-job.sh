#!/usr/bin/env bash
# one GPU: ncu source-level stall sampling of the cluster bc_kernel on the 2048 grid: b45 (forward only) and b44 (both passes)
L=/tmp/m75logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in b44 b45; do mkdir -p /tmp/$b; xz -dc .device-carry/$b/mgraph.xz > /tmp/$b/mgraph; chmod +x /tmp/$b/mgraph; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
/tmp/b44/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
for b in b45 b44; do
  timeout 200 ncu -k regex:'bc_kernel' -c 1 --section WarpStateStats --section SourceCounters --section SpeedOfLight --import-source yes -o $L/$b /tmp/$b/mgraph run bc /tmp/g2048.mgb --backend cuda --source 2098176 --trials 1 --cache-dir /tmp/c > $L/ncu-$b.txt 2>&1
  ncu -i $L/$b.ncu-rep --page source --csv --print-source cuda > $L/$b-cuda.csv 2>&1
  ncu -i $L/$b.ncu-rep --page source --csv --print-source sass > $L/$b-sass.csv 2>&1
  ncu -i $L/$b.ncu-rep --page details > $L/$b-details.txt 2>&1
  echo "$b ($(t)): $(grep -E 'Duration|Elapsed Cycles' $L/$b-details.txt | tr -s ' ' | tr '\n' '|')"
done
ls -la $L; echo "done $(t)"

#!/usr/bin/env bash
# two GPUs, final at HEAD (c4c8fd1): CLI tests, the whole gpu suite, luxembourg against the serial reference, the 2048 grid side by side with GAPBS 16T
B=/tmp/mgbin; L=/tmp/m34logs; mkdir -p $B $L
for f in .device-carry/b11/*.xz; do xz -dc $f > $B/$(basename $f .xz); done; chmod +x $B/*
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
(cd cmd/mgraph && PATH=$B:$PATH timeout 200 $B/cmd.test -test.count=1 -test.v > $L/cmd.txt 2>&1; echo "rc=$?" >> $L/cmd.txt)
echo "cmd ($(t)): $(tail -1 $L/cmd.txt) pass=$(grep -c '^--- PASS' $L/cmd.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/cmd.txt | head -20
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for r in 1 2 3; do for a in bfs bc sssp cc; do
 echo "r$r lux $a: $($B/mgraph run $a $X --backend cuda --source 0 --weights 7 --trials 20 --validate 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|validation took [0-9.]+ ms' | tr '\n' ' ')"
done; done
bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --out /tmp/sbs --graphs grid:2048:0.1@2098176 --apps bfs,sssp,bc --mode auto --threads 16 --timeout 120 > $L/sbs.txt 2>&1
echo "side-by-side ($(t)):"; cat /tmp/sbs/table.md; cp /tmp/sbs/table.md /tmp/sbs/results.tsv $L/ 2>/dev/null
(cd gpu && timeout 480 $B/gpu.test -test.count=1 -test.v > $L/gpu.txt 2>&1; echo "rc=$?" >> $L/gpu.txt)
echo "gpu ($(t)): $(tail -1 $L/gpu.txt) pass=$(grep -c '^--- PASS' $L/gpu.txt) skip=$(grep -c '^--- SKIP' $L/gpu.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/gpu.txt | head -20; grep -E "^--- SKIP" $L/gpu.txt
echo "done $(t)"

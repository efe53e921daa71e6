#!/usr/bin/env bash
# one GPU. b99: MG_EXP_BC=4, the cluster's backward pass arrives at its barrier after δ's stores and loads the levels ahead before it waits; against 0 (HEAD's order). Validated.
L=/tmp/m138logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
G=/tmp/g2048.mgb; S="--source 2098176"
[ -f $G ] || $B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o $G > /dev/null 2>&1
MG_EXP_BC=4 timeout 60 $B/mgraph run bc $G $S --backend cuda --trials 2 --validate 2>&1 | grep -E "validation|trial best" | tail -2
MG_EXP_BC=4 timeout 60 $B/mgraph run bc grid:1024:0.1 --sources 4 --backend cuda --trials 1 --validate 2>&1 | grep -E "validation|trial best" | tail -2
for r in 1 2 3; do for e in 0 4; do
  echo "exp=$e r=$r: $(MG_EXP_BC=$e timeout 60 $B/mgraph run bc $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
done; done
echo "done $(t)"

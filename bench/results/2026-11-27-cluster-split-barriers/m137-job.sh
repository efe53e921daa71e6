#!/usr/bin/env bash
# one GPU. b98 (HEAD + MG_EXP_BC in the cluster's Brandes: 1 no backward pass, 2 backward without δ's stores, 3 backward without barriers): where the 2048 grid's BC time goes. Timing only (2 and 3 give wrong scores).
L=/tmp/m137logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
G=/tmp/g2048.mgb; S="--source 2098176"
[ -f $G ] || $B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o $G > /dev/null 2>&1
timeout 60 $B/mgraph run bc $G $S --backend cuda --trials 2 --validate 2>&1 | grep -E "validation|trial best" | tail -2
for r in 1 2; do for e in 0 1 2 3; do
  echo "exp=$e r=$r: $(MG_EXP_BC=$e timeout 60 $B/mgraph run bc $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
done; done
echo "done $(t)"

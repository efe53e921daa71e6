#!/usr/bin/env bash
# one GPU: bc engine split: b43 (HEAD), b44 (δ in DSMEM), b45 (b44 without the backward pass: forward alone)
L=/tmp/m74logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in b43 b44 b45; do mkdir -p /tmp/$b; for f in mgraph; do xz -dc .device-carry/$b/$f.xz > /tmp/$b/$f; chmod +x /tmp/$b/$f; done; done
nvidia-smi --query-gpu=name --format=csv,noheader
for s in 1024 2048; do /tmp/b44/mgraph gen grid:$s:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g$s.mgb > /dev/null 2>&1; done
src() { echo $(( $1 * $1 / 2 + $1 / 2 )); }
for r in 1 2; do for b in b43 b44 b45; do for s in 1024 2048; do
  echo "r$r $b grid$s bc: $(/tmp/$b/mgraph run bc /tmp/g$s.mgb --backend cuda --trials 8 --source $(src $s) --cache-dir /tmp/c 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|engine [0-9.]+ [mµ]s\)' | tr '\n' ' ')"; done; done; done
echo "done $(t)"

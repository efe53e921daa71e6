#!/usr/bin/env bash
# one GPU: async SSSP on the 2048 grid, bucket width and blocks per SM (b10 = HEAD)
B=/tmp/mgB; L=/tmp/m32logs; mkdir -p $B $L
for f in .device-carry/b10/mgraph.xz; do xz -dc $f > $B/$(basename $f .xz); done; chmod +x $B/*
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
[ -f /tmp/g2048.mgb ] || $B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
one() { $B/mgraph run sssp /tmp/g2048.mgb --backend cuda --source 2098176 --trials 6 $1 --trace $L/t.json 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s' | head -1 | tr '\n' ' '
  python3 -c "
import json; d=json.load(open('$L/t.json'))
a=[it.get('async') for t in d['trials'] for it in t['result']['trace'] if it.get('async')]
print('items %d buckets %d delta %s' % (a[-1]['items'], a[-1]['buckets'], a[-1]['delta']) if a else '')"; }
for nf in 0 256 512 768 1024 1536 3072; do echo "near-far $nf: $(one "--gpu-near-far $nf")"; done
for b in 1 3 4; do echo "blocks/SM $b: $(one "--gpu-async-blocks $b")"; done
echo "near-far 1024 blocks 4: $(one "--gpu-near-far 1024 --gpu-async-blocks 4")"
echo "done $(t)"

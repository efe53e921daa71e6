#!/usr/bin/env bash
# one GPU. b97: experiments MG_EXP_FAR_RING (released near vertices to the ring) and MG_EXP_WORK_LOW (early advance when work < W), against b92.
L=/tmp/m136logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/b92; [ -x /tmp/b92/mgraph ] || { xz -dc .device-carry/b92/mgraph.xz > /tmp/b92/mgraph; chmod +x /tmp/b92/mgraph; }
G=/tmp/g2048.mgb; S="--source 2098176"
[ -f $G ] || $B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o $G > /dev/null 2>&1
items() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for t in d['trials'][-1:]:
  for it in (t['result'].get('Trace') or t['result'].get('trace') or []):
    if 'async' in it: print('   ', it['async'], it['seconds'])
" $1; }
echo "b92: $(timeout 60 /tmp/b92/mgraph run sssp $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
for fr in 0 1; do for wl in 0 1024 4096 16384; do
  echo "far_ring=$fr work_low=$wl: $(MG_EXP_IDLE_SHARE=0 MG_EXP_FAR_RING=$fr MG_EXP_WORK_LOW=$wl timeout 30 $B/mgraph run sssp $G $S --backend cuda --trials 5 --trace $L/tr.json 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
  items $L/tr.json
done; done
echo "far_ring=1 work_low=4096 nf=1024: $(MG_EXP_IDLE_SHARE=0 MG_EXP_FAR_RING=1 MG_EXP_WORK_LOW=4096 timeout 30 $B/mgraph run sssp $G $S --backend cuda --trials 5 --gpu-near-far 1024 --trace $L/tr.json 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"; items $L/tr.json
echo "b92: $(timeout 60 /tmp/b92/mgraph run sssp $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
echo "done $(t)"

#!/usr/bin/env bash
# one GPU. b94: near-far without barriers, the far log released by an O(1) advance and taken by idle blocks: tests, the 2048 grid SSSP sweep against b92.
L=/tmp/m133logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 $B/gpu.test -test.count=1 -test.v -test.run 'TestAsyncOnce|TestFloat32SSSPVariants|TestFloat32SSSPOverflow|TestMinProgramsAllModesAllShapes|TestBCAuto' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/tests.txt | head
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
timeout 60 $B/mgraph run sssp $G $S --backend cuda --trials 2 --validate 2>&1 | grep -E "validation|trial best" | tail -2
timeout 60 $B/mgraph run sssp /tmp/datasets/luxembourg_osm.mtx.zst --backend cuda --weights 7 --sources 4 --trials 2 --validate --cache-dir /tmp/c 2>&1 | grep -E "validation|trial best" | tail -2
echo "--- sweep ($(t))"
for r in 1 2; do
for nf in 0 1024 512; do for sh in 0 2 4 8 16; do A=""; [ $nf != 0 ] && A="--gpu-near-far $nf"
  echo "share=$sh nf=$nf r=$r: $(MG_EXP_IDLE_SHARE=$sh timeout 60 $B/mgraph run sssp $G $S --backend cuda --trials 6 $A --trace $L/tr-$sh-$nf.json 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
  [ $r = 1 ] && items $L/tr-$sh-$nf.json
done; done
echo "b92 r=$r: $(timeout 60 /tmp/b92/mgraph run sssp $G $S --backend cuda --trials 6 --trace $L/tr-b92.json 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
[ $r = 1 ] && items $L/tr-b92.json
done
echo "done $(t)"

#!/usr/bin/env bash
# one GPU. b101 (b100 and the forward places each level between its arrival and its wait) against b92: tests, validation, memcheck, timing.
L=/tmp/m140logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/b100; [ -x /tmp/b100/mgraph ] || { xz -dc .device-carry/b100/mgraph.xz > /tmp/b100/mgraph; chmod +x /tmp/b100/mgraph; }
(cd gpu && timeout 150 $B/gpu.test -test.count=1 -test.v -test.run 'TestClusterRuns|TestBCAuto|TestBCPathCountOverflow|TestBlockRuns' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/tests.txt | head
G=/tmp/g2048.mgb; S="--source 2098176"
[ -f $G ] || $B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o $G > /dev/null 2>&1
timeout 60 $B/mgraph run bc $G $S --backend cuda --trials 2 --validate 2>&1 | grep -E "validation|trial best" | tail -2
timeout 60 $B/mgraph run bc $G --sources 3 --backend cuda --trials 1 --validate 2>&1 | grep -E "validation|trial best" | tail -2
timeout 60 $B/mgraph run bc grid:1024:0.1 --sources 4 --backend cuda --trials 1 --validate 2>&1 | grep -E "validation|trial best" | tail -2
for r in 1 2 3; do for b in $B /tmp/b100; do
  echo "$(basename $b) 2048 r=$r: $(timeout 60 $b/mgraph run bc $G $S --backend cuda --trials 5 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"
done; done
for b in $B /tmp/b100; do echo "$(basename $b) 1024: $(timeout 60 $b/mgraph run bc grid:1024:0.1 --source 524800 --backend cuda --trials 8 2>&1 | grep 'trial best' | sed 's/.*trial best/best/')"; done
echo "done $(t)"

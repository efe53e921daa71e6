#!/usr/bin/env bash
cd "$(dirname "$0")/.."
mkdir -p /tmp/b16 /tmp/m40logs; xz -dc .device-carry/b16/mgraph.xz > /tmp/b16/mgraph; chmod +x /tmp/b16/mgraph
[ -f /tmp/g2048.mgb ] || /tmp/b16/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
G=/tmp/g2048.mgb; S="--source 2098176"
for nf in 0 512 1024; do A=""; [ $nf != 0 ] && A="--gpu-near-far $nf"
/tmp/b16/mgraph run sssp $G $S --backend cuda --trials 2 $A > /tmp/m40logs/nf$nf.txt 2>&1; done
grep -c PROF /tmp/m40logs/nf0.txt; awk '/PROF/ {n++} n>0 && n<=40' /tmp/m40logs/nf0.txt | tail -22; grep "trial " /tmp/m40logs/*.txt
mkdir -p $OUT; tar czf $OUT/m40.tgz -C /tmp m40logs

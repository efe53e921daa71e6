#!/usr/bin/env bash
# one GPU: σ loads overlapped with the claims (b8) against b7; tests; ncu stall reasons of the one-block kernels
A=/tmp/mgA; B=/tmp/mgB; L=/tmp/m28logs; mkdir -p $A $B $L
xz -dc .device-carry/b7/mgraph.xz > $A/mgraph; for f in .device-carry/b8/*.xz; do xz -dc $f > $B/$(basename $f .xz); done; chmod +x $A/* $B/*
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
(cd gpu && timeout 100 $B/gpu.test -test.count=1 -test.v -test.run 'TestBlock|TestCluster|TestSumProgramsAllModesAllShapes' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/tests.txt | head -30
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for round in 1 2 3; do for M in A B; do D=/tmp/mg$M
 echo "r$round $M lux bc: $($D/mgraph run bc $X --backend cuda --source 0 --trials 20 $( [ $round = 1 ] && echo --validate ) 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|validation took [0-9.]+ ms' | tr '\n' ' ')"
done; done
echo "B lux bfs: $($B/mgraph run bfs $X --backend cuda --source 0 --trials 20 --validate 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|validation took [0-9.]+ ms' | tr '\n' ' ')"
$B/mgraph run bc $X --backend cuda --source 0 --trials 3 --trace $L/bc-B.json > /dev/null 2>&1
python3 -c "
import json; d=json.load(open('$L/bc-B.json'))
for t in d['trials']: print('bc trial', t['seconds'], [(p['name'], p['seconds']) for it in t['result']['trace'] for p in it['phases']])"
timeout 120 ncu -k regex:'bfs_kernel' -c 1 --section WarpStateStats --section SourceCounters --section LaunchStats --section SpeedOfLight $B/mgraph run bfs $X --backend cuda --source 0 --trials 1 > $L/ncu-bfs.txt 2>&1
timeout 120 ncu -k regex:'bc_kernel|back_kernel' -c 2 --section WarpStateStats --section SourceCounters --section SpeedOfLight $B/mgraph run bc $X --backend cuda --source 0 --trials 1 > $L/ncu-bc.txt 2>&1
echo "ncu ($(t))"; grep -E "Duration|Stall|stall|Warp Cycles|Elapsed Cycles|SM Frequency|smsp__pcsamp|Issued" $L/ncu-bfs.txt | head -40
echo ---; grep -E "Duration|Warp Cycles|Elapsed Cycles|SM Frequency" $L/ncu-bc.txt | head
echo "done $(t)"

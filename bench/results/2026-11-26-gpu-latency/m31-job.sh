#!/usr/bin/env bash
# one GPU: ncu stall sampling by instruction: the async worklist kernel (SSSP, 2048 grid) and the block BFS (luxembourg), at HEAD (b10)
B=/tmp/mgB; L=/tmp/m31logs; mkdir -p $B $L
for f in .device-carry/b10/*.xz; do xz -dc $f > $B/$(basename $f .xz); done; chmod +x $B/*
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
$B/mgraph run sssp /tmp/g2048.mgb --backend cuda --source 2098176 --trials 3 --trace $L/sssp.json 2>&1 | tail -2
python3 -c "
import json; d=json.load(open('$L/sssp.json'))
t=d['trials'][-1]; print('sssp trial', t['seconds'], json.dumps(t['result'])[:1500])"
timeout 200 ncu -k regex:'worklist_kernel' -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass --csv $B/mgraph run sssp /tmp/g2048.mgb --backend cuda --source 2098176 --trials 1 > $L/ncu-sssp.txt 2>&1
echo "ncu sssp ($(t)) $(wc -l < $L/ncu-sssp.txt)"
timeout 120 ncu -k regex:'worklist_kernel' -c 1 --section WarpStateStats --section SpeedOfLight --section LaunchStats --section Occupancy $B/mgraph run sssp /tmp/g2048.mgb --backend cuda --source 2098176 --trials 1 > $L/ncu-sssp-sum.txt 2>&1
grep -E "Duration|Warp Cycles|Elapsed Cycles|SM Frequency|Registers|Achieved|Theoretical Occ|Block Limit|Grid Size" $L/ncu-sssp-sum.txt
timeout 120 ncu -k regex:'bfs_kernel' -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass --csv $B/mgraph run bfs $X --backend cuda --source 0 --trials 1 > $L/ncu-bfs.txt 2>&1
echo "done $(t)"

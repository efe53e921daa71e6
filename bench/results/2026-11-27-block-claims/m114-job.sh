#!/usr/bin/env bash
# one GPU. ncu stall sampling by SASS instruction of the block BFS (2-lane rows, b75) and the block BC kernel on luxembourg_osm.
L=/tmp/m114logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
X=/tmp/datasets/luxembourg_osm.mtx.zst
timeout 150 ncu -k regex:'bfs_kernel' -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass --csv $B/mgraph run bfs $X --backend cuda --source 0 --trials 1 --cache-dir /tmp/c > $L/ncu-bfs.txt 2>&1; echo "bfs $? ($(t))"
timeout 150 ncu -k regex:'bc_kernel' -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass --csv $B/mgraph run bc $X --backend cuda --source 0 --trials 1 --cache-dir /tmp/c > $L/ncu-bc.txt 2>&1; echo "bc $? ($(t))"
timeout 150 ncu -k regex:'bfs_kernel' -c 1 --section SpeedOfLight --section WarpStateStats $B/mgraph run bfs $X --backend cuda --source 0 --trials 1 --cache-dir /tmp/c > $L/ncu-bfs-sum.txt 2>&1; echo "bfs sum $? ($(t))"
echo "done $(t)"

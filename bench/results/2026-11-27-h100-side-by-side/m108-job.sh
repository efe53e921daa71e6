#!/usr/bin/env bash
# one H100, same lease as m107: a second side-by-side round; luxembourg_osm's traversal apps in auto against the serial references alone (bench/reftime).
L=/tmp/m108logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s)
xz -dc .device-carry/b70/reftime.xz > /tmp/reftime 2>/dev/null; chmod +x /tmp/reftime
timeout 300 bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --graphs grid:2048:0.1 --apps bfs,sssp,bc --mode auto --threads 16 --out /tmp/sbs2 --cache > $L/sbs.txt 2>&1
cp /tmp/sbs2/table.md $L/; grep "^| grid" /tmp/sbs2/table.md
D=/tmp/datasets/luxembourg_osm.mtx.zst
for i in 1 2; do for app in bfs sssp cc bc; do timeout 60 $B/mgraph run $app $D --backend cuda --mode auto --weights 7 --source 0 --trials 20 --cache-dir /tmp/c > $L/lux-$app-$i.txt 2>&1; echo "lux $app $i: $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/lux-$app-$i.txt)"; done; done
timeout 120 /tmp/reftime --source 0 --runs 5 --weight-seed 7 $D > $L/reftime.txt 2>&1; cat $L/reftime.txt | tail -8
echo "done $(( $(date +%s)-T0 ))s"

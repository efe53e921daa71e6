#!/usr/bin/env bash
# one H100 (issue 18's card). b82 (HEAD: block levels with 2 lanes a row and claims issued together) vs b72 (62cf22c):
# luxembourg_osm's traversal apps against the serial references alone (bench/reftime), and the 2048 grid side by side with GAPBS 16T.
L=/tmp/m120logs; mkdir -p $L /tmp/mg72; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
xz -dc .device-carry/b72/mgraph.xz > /tmp/mg72/mgraph; chmod +x /tmp/mg72/mgraph
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c; nproc
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation: F|panic' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
D=/tmp/datasets/luxembourg_osm.mtx.zst
for app in bfs sssp cc bc; do r val-lux-$app $B/mgraph run $app $D --backend cuda --mode auto --weights 7 --source 0 --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-lux-$app.txt | head -1; done
for i in 1 2; do for b in 72 82; do M=/tmp/mgbin/mgraph; [ $b = 72 ] && M=/tmp/mg72/mgraph
  for app in bfs sssp cc bc; do r lux-$app-b$b-$i $M run $app $D --backend cuda --mode auto --weights 7 --source 0 --trials 20 --cache-dir /tmp/c; done
done; done
timeout 120 /tmp/mgbin/reftime --source 0 --runs 5 --weight-seed 7 $D > $L/reftime.txt 2>&1; tail -8 $L/reftime.txt
timeout 400 bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --graphs grid:2048:0.1 --apps bfs,sssp,bc --mode auto --threads 16 --out /tmp/sbs --cache > $L/sbs.txt 2>&1
echo "sbs rc $? ($(t))"; cp /tmp/sbs/table.md /tmp/sbs/results.tsv /tmp/sbs/env.txt $L/ 2>/dev/null; grep "^| grid" $L/table.md
echo "done $(t)"

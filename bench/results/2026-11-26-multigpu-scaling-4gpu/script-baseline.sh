#!/usr/bin/env bash
# four GPUs (background job): strong scaling R-MAT 25 (1, 2, 4 GPUs; bfs sssp cc pr), weak scaling (24 on 1, 25 on 2, 26 on 4), R-MAT 26 on one GPU
B=/tmp/mgbin; L=/tmp/m13logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
nproc; free -g | head -2
gen() { $B/mgraph gen rmat:$1:16 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/r$1.mgb > $L/gen$1.txt 2>&1; echo "gen $1 ($(t)): $(head -1 $L/gen$1.txt | cut -c1-120)"; }
r() { local tag=$1; shift; timeout 600 $B/mgraph run "$@" --cache-dir /tmp/c > $L/$tag.txt 2>&1; local rc=$?; echo "$tag ($(t)) rc=$rc: $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms' $L/$tag.txt) $(grep -E 'partitioned into|cached partition|rror|peak device|last trial' $L/$tag.txt | cut -c1-230 | tr '\n' '|')"; }
src() { [ $1 = cc -o $1 = pr ] || echo --source 0; }
gen 25
for g in 1 2 4; do for app in bfs sssp pr; do
  if [ $g = 1 ]; then r $app-25-1 $app /tmp/r25.mgb --backend cuda --trials 8 $(src $app); else r $app-25-$g $app /tmp/r25.mgb --gpus $g --partition random --trials 8 $(src $app); fi
done; done
gen 24
for app in bfs sssp pr; do r $app-24-1 $app /tmp/r24.mgb --backend cuda --trials 8 $(src $app); done
rm -f /tmp/r24.mgb
gen 26
for app in bfs sssp pr; do r $app-26-4 $app /tmp/r26.mgb --gpus 4 --partition random --trials 8 $(src $app); done
for app in bfs; do r $app-26-1 $app /tmp/r26.mgb --backend cuda --trials 4 $(src $app); done
echo "done $(t)"

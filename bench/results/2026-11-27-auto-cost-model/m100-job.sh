#!/usr/bin/env bash
# one GPU. auto's cost model (sampler.AsyncCosts): b63 (ce8a047, hand-over at iteration 16) against b64 (the model, from iteration 8);
# validation of the traversal apps in auto on the datasets; the GPU suite but the partitioned tests (m99 ran those).
L=/tmp/m100logs; mkdir -p $L /tmp/mgold; xz -dc .device-carry/b63/mgraph.xz > /tmp/mgold/mgraph; chmod +x /tmp/mgold/mgraph
B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-160 | tr '\n' '|')"; }
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > $L/gen.txt 2>&1
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/r21.mgb >> $L/gen.txt 2>&1
$B/mgraph gen kron:24:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/k24.mgb >> $L/gen.txt 2>&1; echo "gen ($(t))"
pass=0; fail=0
for d in /tmp/datasets/*.mtx.zst; do n=$(basename $d .mtx.zst); for app in bfs sssp cc bc; do
  timeout 90 $B/mgraph run $app $d --backend cuda --mode auto --weights 7 --trials 2 --validate --trace $L/tr-$n-$app.json --cache-dir /tmp/c > $L/v-$n-$app.txt 2>&1
  if [ $? = 0 ] && grep -q 'validation: ok' $L/v-$n-$app.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $n $app: $(grep -E 'rror|validation' $L/v-$n-$app.txt | head -2 | cut -c1-200 | tr '\n' '|')"; fi
done; done; echo "validate auto on datasets ($(t)): pass $pass fail $fail"
for app in bfs sssp bc; do r val-g2048-$app $B/mgraph run $app /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 2 --validate --trace $L/tr-g2048-$app.json --cache-dir /tmp/c; done
for app in bfs sssp; do r val-r21-$app $B/mgraph run $app /tmp/r21.mgb --backend cuda --mode auto --trials 2 --validate --trace $L/tr-r21-$app.json --cache-dir /tmp/c; done
for i in 1 2; do for b in old new; do M=/tmp/mgbin/mgraph; [ $b = old ] && M=/tmp/mgold/mgraph
  for app in bfs sssp bc; do r g2048-$app-$b-$i $M run $app /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 8 --cache-dir /tmp/c; done
  for app in bfs sssp bc; do r lux-$app-$b-$i $M run $app /tmp/datasets/luxembourg_osm.mtx.zst --weights 7 --backend cuda --mode auto --trials 20 --cache-dir /tmp/c; done
  for g in r21 k24; do for app in bfs sssp; do r $g-$app-$b-$i $M run $app /tmp/$g.mgb --backend cuda --mode auto --trials 8 --cache-dir /tmp/c; done; done
done; for g in r21 k24; do for app in bfs sssp; do r $g-$app-hybrid-$i $B/mgraph run $app /tmp/$g.mgb --backend cuda --mode hybrid --trials 8 --cache-dir /tmp/c; done; done; done
(cd /tmp && timeout 420 $B/gpu.test -test.v -test.skip TestPartitioned > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
echo "done $(t)"

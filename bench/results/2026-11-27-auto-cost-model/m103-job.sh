#!/usr/bin/env bash
# one GPU. auto model, third version (early shrink = wavefront; async measured over the vertices left): b63 (ce8a047) vs b67.
L=/tmp/m103logs; mkdir -p $L /tmp/mgold; xz -dc .device-carry/b63/mgraph.xz > /tmp/mgold/mgraph; chmod +x /tmp/mgold/mgraph
B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation: F' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > $L/gen.txt 2>&1
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/r21.mgb >> $L/gen.txt 2>&1; echo "gen ($(t))"
pass=0; fail=0
for d in /tmp/datasets/*.mtx.zst; do n=$(basename $d .mtx.zst); for app in bfs sssp cc bc; do
  timeout 90 $B/mgraph run $app $d --backend cuda --mode auto --weights 7 --trials 3 --validate --trace $L/tr-$n-$app.json --cache-dir /tmp/c > $L/v-$n-$app.txt 2>&1
  if [ $? = 0 ] && grep -q 'validation: ok' $L/v-$n-$app.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $n $app"; fi
done; done; echo "validate auto on datasets ($(t)): pass $pass fail $fail"
for app in bfs sssp bc; do r val-g2048-$app $B/mgraph run $app /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 2 --validate --trace $L/tr-g2048-$app.json --cache-dir /tmp/c; done
r val-r21-sssp $B/mgraph run sssp /tmp/r21.mgb --backend cuda --mode auto --trials 2 --validate --trace $L/tr-r21-sssp.json --cache-dir /tmp/c
(cd /tmp && timeout 120 $B/gpu.test -test.v -test.run 'Auto|BCAuto|Async' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -5 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for i in 1 2; do for b in old new; do M=/tmp/mgbin/mgraph; [ $b = old ] && M=/tmp/mgold/mgraph
  r g2048-sssp-$b-$i $M run sssp /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 8 --cache-dir /tmp/c
  r lux-sssp-$b-$i $M run sssp /tmp/datasets/luxembourg_osm.mtx.zst --weights 7 --backend cuda --mode auto --trials 20 --cache-dir /tmp/c
  r r21-sssp-$b-$i $M run sssp /tmp/r21.mgb --backend cuda --mode auto --trials 8 --cache-dir /tmp/c
  for d in cit-HepPh caidaRouterLevel coAuthorsDBLP uk-2007-05_100000 ego-twitter-undirected; do for app in bfs sssp; do
    r $d-$app-$b-$i $M run $app /tmp/datasets/$d.mtx.zst --weights 7 --backend cuda --mode auto --trials 20 --cache-dir /tmp/c; done; done
done; done
echo "done $(t)"

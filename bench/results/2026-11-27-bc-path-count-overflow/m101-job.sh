#!/usr/bin/env bash
# one GPU. b65: BC leaves keep δ 0 where σ overflowed (block rows/CSR, cluster), auto's model. b63 = ce8a047 (before).
L=/tmp/m101logs; mkdir -p $L /tmp/mgold; xz -dc .device-carry/b63/mgraph.xz > /tmp/mgold/mgraph; chmod +x /tmp/mgold/mgraph
B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation|warning|ERROR SUMMARY' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > $L/gen.txt 2>&1
$B/mgraph gen grid:1250:0.1 --symmetrize --dedupe --drop-self-loops -o /tmp/g1250.mgb >> $L/gen.txt 2>&1; echo "gen ($(t))"
C="--backend cuda --trials 2 --validate --cache-dir /tmp/c"
r bc-g2048-auto $B/mgraph run bc /tmp/g2048.mgb --source 2098176 --mode auto $C
r bc-g2048-nocluster $B/mgraph run bc /tmp/g2048.mgb --source 2098176 --mode auto --gpu-no-cluster $C
r bc-g2048-hybrid $B/mgraph run bc /tmp/g2048.mgb --source 2098176 --mode hybrid $C
r bc-g2048-async $B/mgraph run bc /tmp/g2048.mgb --source 2098176 --mode async $C
r bc-g1250-auto $B/mgraph run bc /tmp/g1250.mgb --source 781875 --mode auto $C
r bc-g1250-csr $B/mgraph run bc /tmp/g1250.mgb --source 781875 --mode auto --gpu-no-block-rows $C
r bc-g1250-cluster $B/mgraph run bc /tmp/g1250.mgb --source 781875 --mode auto --gpu-no-block $C
r bc-lux-auto $B/mgraph run bc /tmp/datasets/luxembourg_osm.mtx.zst --mode auto --sources 4 $C
r bc-lux-csr $B/mgraph run bc /tmp/datasets/luxembourg_osm.mtx.zst --mode auto --sources 4 --gpu-no-block-rows $C
for x in "" "--gpu-no-block-rows" "--gpu-no-block"; do r san-bc$x compute-sanitizer --tool memcheck $B/mgraph run bc grid:300 --source 45150 --backend cuda --mode auto --validate --no-cache --trials 1 $x; done
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'BC|Block|Cluster|Brandes|Auto' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -20 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for i in 1 2; do for b in old new; do M=/tmp/mgbin/mgraph; [ $b = old ] && M=/tmp/mgold/mgraph
  r g2048-bc-$b-$i $M run bc /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 8 --cache-dir /tmp/c
  r lux-bc-$b-$i $M run bc /tmp/datasets/luxembourg_osm.mtx.zst --weights 7 --backend cuda --mode auto --trials 20 --cache-dir /tmp/c
  for d in cit-HepPh caidaRouterLevel coAuthorsDBLP uk-2007-05_100000 ego-twitter-undirected; do for app in bfs sssp; do
    r $d-$app-$b-$i $M run $app /tmp/datasets/$d.mtx.zst --weights 7 --backend cuda --mode auto --trials 20 --cache-dir /tmp/c; done; done
done; done
echo "done $(t)"

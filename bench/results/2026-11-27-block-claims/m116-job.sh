#!/usr/bin/env bash
# one GPU. block levels' claims issued together (pad words fixed) + the cluster's: b77 vs b72 (HEAD before the session).
L=/tmp/m116logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in 72; do mkdir -p /tmp/mg$b; xz -dc .device-carry/b$b/mgraph.xz > /tmp/mg$b/mgraph; chmod +x /tmp/mg$b/mgraph; done
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation: F|panic' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
D=/tmp/datasets/luxembourg_osm.mtx.zst
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'BCAuto|BCPathCountOverflow|BlockRuns|Block|ClusterRuns' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -5 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for app in bfs bc; do for s in 0 50000; do
  r val-lux-$app-$s $B/mgraph run $app $D --backend cuda --mode auto --source $s --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-lux-$app-$s.txt | head -1; done; done
$B/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > $L/gen.txt 2>&1
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb >> $L/gen.txt 2>&1
for app in bfs bc; do r val-g1024-$app $B/mgraph run $app /tmp/g1024.mgb --backend cuda --mode auto --source 524800 --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-g1024-$app.txt | head -1; done
r val-g2048-bc $B/mgraph run bc /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-g2048-bc.txt | head -1
for i in 1 2; do for b in 72 77; do M=/tmp/mgbin/mgraph; [ $b != 77 ] && M=/tmp/mg$b/mgraph
  for app in bfs bc; do r lux-$app-b$b-$i $M run $app $D --backend cuda --mode auto --source 0 --trials 20 --cache-dir /tmp/c; done
  r g1024-bc-b$b-$i $M run bc /tmp/g1024.mgb --backend cuda --mode auto --source 524800 --trials 8 --cache-dir /tmp/c
  r g2048-bc-b$b-$i $M run bc /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 8 --cache-dir /tmp/c
done; done
(cd /tmp && timeout 150 compute-sanitizer --tool memcheck $B/gpu.test -test.run 'BlockRuns|BlockRows|ClusterRuns$' > $L/memcheck.txt 2>&1); rc=$?; echo "memcheck ($(t)): rc $rc $(tail -3 $L/memcheck.txt | tr '\n' '|')"
echo "done $(t)"

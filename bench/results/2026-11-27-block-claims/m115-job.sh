#!/usr/bin/env bash
# one GPU. block levels: unconditional claims (4 atomics issued together) b76 vs b75 (2 lanes a row) vs b72 (HEAD before).
L=/tmp/m115logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in 72 75; do mkdir -p /tmp/mg$b; xz -dc .device-carry/b$b/mgraph.xz > /tmp/mg$b/mgraph; chmod +x /tmp/mg$b/mgraph; done
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation: F|panic' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
D=/tmp/datasets/luxembourg_osm.mtx.zst
for app in bfs bc; do for s in 0 777 50000; do
  r val-lux-$app-$s $B/mgraph run $app $D --backend cuda --mode auto --source $s --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-lux-$app-$s.txt | head -1; done; done
$B/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > $L/gen.txt 2>&1
for app in bfs bc; do r val-g1024-$app $B/mgraph run $app /tmp/g1024.mgb --backend cuda --mode auto --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-g1024-$app.txt | head -1; done
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'BCAuto|BCPathCountOverflow|BlockRuns|Block' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -5 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for i in 1 2; do for b in 72 75 76; do M=/tmp/mgbin/mgraph; [ $b != 76 ] && M=/tmp/mg$b/mgraph
  for app in bfs bc; do r lux-$app-b$b-$i $M run $app $D --backend cuda --mode auto --source 0 --trials 20 --cache-dir /tmp/c; done
  r g1024-bfs-b$b-$i $M run bfs /tmp/g1024.mgb --backend cuda --mode auto --trials 10 --cache-dir /tmp/c
done; done
echo "done $(t)"

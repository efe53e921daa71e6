#!/usr/bin/env bash
# one GPU. block levels: 4 lanes a row, 2 slots each (b79) vs 2 lanes, 4 slots (b80: generic code; b77: before it).
L=/tmp/m118logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in 77 80; do mkdir -p /tmp/mg$b; xz -dc .device-carry/b$b/mgraph.xz > /tmp/mg$b/mgraph; chmod +x /tmp/mg$b/mgraph; done
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation: F|panic' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
D=/tmp/datasets/luxembourg_osm.mtx.zst
for app in bfs bc; do for s in 0 50000; do r val-lux-$app-$s $B/mgraph run $app $D --backend cuda --mode auto --source $s --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-lux-$app-$s.txt | head -1; done; done
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'BCAuto|BCPathCountOverflow|BlockRuns|Block' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -5 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for i in 1 2; do for b in 77 80 79; do M=/tmp/mgbin/mgraph; [ $b != 79 ] && M=/tmp/mg$b/mgraph
  for app in bfs bc; do r lux-$app-b$b-$i $M run $app $D --backend cuda --mode auto --source 0 --trials 20 --cache-dir /tmp/c; done
done; done
echo "done $(t)"

#!/usr/bin/env bash
# one GPU. cluster BC expand with 2 lanes a row (16-byte vectors) instead of 8 (and the block's from m111): b72 (HEAD 62cf22c) vs b74.
L=/tmp/m112logs; mkdir -p $L /tmp/mgold; xz -dc .device-carry/b72/mgraph.xz > /tmp/mgold/mgraph; chmod +x /tmp/mgold/mgraph
B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation: F|panic' $L/$tag.txt | cut -c1-130 | tr '\n' '|')"; }
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > $L/gen.txt 2>&1
$B/mgraph gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb >> $L/gen.txt 2>&1; echo "gen ($(t))"
r val-g2048-bc $B/mgraph run bc /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-g2048-bc.txt | head -1
r val-g2048-bc-s5 $B/mgraph run bc /tmp/g2048.mgb --backend cuda --mode auto --source 5 --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-g2048-bc-s5.txt | head -1
r val-g1024-bc $B/mgraph run bc /tmp/g1024.mgb --backend cuda --mode auto --source 524800 --trials 2 --validate --cache-dir /tmp/c; grep -h "validation" $L/val-g1024-bc.txt | head -1
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'BCAuto|BCPathCountOverflow|BlockRuns|ClusterRuns|Block' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -5 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for i in 1 2; do for b in old new; do M=/tmp/mgbin/mgraph; [ $b = old ] && M=/tmp/mgold/mgraph
  r g2048-bc-$b-$i $M run bc /tmp/g2048.mgb --backend cuda --mode auto --source 2098176 --trials 8 --cache-dir /tmp/c
  r g1024-bc-$b-$i $M run bc /tmp/g1024.mgb --backend cuda --mode auto --source 524800 --trials 8 --cache-dir /tmp/c
done; done
(cd /tmp && timeout 150 compute-sanitizer --tool memcheck $B/gpu.test -test.run 'ClusterRuns' > $L/memcheck.txt 2>&1); rc=$?; echo "memcheck ($(t)): rc $rc $(tail -3 $L/memcheck.txt | tr '\n' '|')"
echo "done $(t)"

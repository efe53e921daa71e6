#!/usr/bin/env bash
# one GPU: b43 (HEAD 20653ea) against b44 (cluster BC's δ in distributed shared memory): gpu tests, memcheck, bc on grids/lux, side by side
L=/tmp/m73logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in b43 b44; do mkdir -p /tmp/$b; for f in mgraph gpu.test; do xz -dc .device-carry/$b/$f.xz > /tmp/$b/$f; chmod +x /tmp/$b/$f; done; done
B=/tmp/b44; nvidia-smi --query-gpu=name --format=csv,noheader; nproc
(cd gpu && timeout 240 $B/gpu.test -test.count=1 -test.run 'TestCluster|TestBCAutoHandsOver|TestBlock|TestSumPrograms$|TestBCDirected' -test.v > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS|rc=)' $L/tests.txt | tr '\n' ' ')"
(cd gpu && timeout 200 compute-sanitizer --tool memcheck $B/gpu.test -test.count=1 -test.run 'TestClusterRuns$' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"
for s in 1024 2048 4096; do $B/mgraph gen grid:$s:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g$s.mgb > /dev/null 2>&1; done
src() { echo $(( $1 * $1 / 2 + $1 / 2 )); }
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for r in 1 2; do for b in b43 b44; do V=""; [ $r = 1 ] && V=--validate
  for s in 1024 2048; do echo "r$r $b grid$s bc: $(/tmp/$b/mgraph run bc /tmp/g$s.mgb --backend cuda --trials 8 --source $(src $s) $V --cache-dir /tmp/c 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|engine [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; done
  echo "r$r $b grid4096 bc: $(/tmp/$b/mgraph run bc /tmp/g4096.mgb --backend cuda --trials 3 --source $(src 4096) --cache-dir /tmp/c 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|engine [0-9.]+ [mµ]s' | tr '\n' ' ')"
  echo "r$r $b lux bc: $(/tmp/$b/mgraph run bc $X --backend cuda --trials 20 --source 0 $V --cache-dir /tmp/c 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"
done; done
echo "grid2048 bc corner b44: $($B/mgraph run bc /tmp/g2048.mgb --backend cuda --trials 8 --source 0 --validate --cache-dir /tmp/c 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"
bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --out /tmp/sbs --graphs grid:2048:0.1@2098176 --apps bfs,sssp,bc --mode auto --threads 16 --timeout 120 > $L/sbs.txt 2>&1
echo "side-by-side ($(t)):"; cat /tmp/sbs/table.md; cp /tmp/sbs/table.md /tmp/sbs/results.tsv $L/ 2>/dev/null
echo "done $(t)"

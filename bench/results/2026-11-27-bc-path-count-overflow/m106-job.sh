#!/usr/bin/env bash
# one GPU. b70: block rows' backward pass NaN where σ overflowed under a vertex with successors (as the reference). b63 = ce8a047.
L=/tmp/m106logs; mkdir -p $L /tmp/mgold; xz -dc .device-carry/b63/mgraph.xz > /tmp/mgold/mgraph; chmod +x /tmp/mgold/mgraph
B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 150 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation|ERROR SUMMARY' $L/$tag.txt | cut -c1-100 | tr '\n' '|')"; }
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'BCPathCountOverflow|BCAuto|BlockRuns|BlockRows|ClusterRuns|SumApps|Brandes' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:|sumprog_test.go:1[0-9][0-9]' $L/gpu-tests.txt | head -12 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
$B/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops -o /tmp/g2048.mgb > $L/gen.txt 2>&1
$B/mgraph gen grid:1250:0.1 --symmetrize --dedupe --drop-self-loops -o /tmp/g1250.mgb >> $L/gen.txt 2>&1; echo "gen ($(t))"
C="--backend cuda --trials 2 --validate --cache-dir /tmp/c"
r bc-g2048-auto $B/mgraph run bc /tmp/g2048.mgb --source 2098176 --mode auto $C
r bc-g1250-auto $B/mgraph run bc /tmp/g1250.mgb --source 781875 --mode auto $C
r bc-g1250-csr $B/mgraph run bc /tmp/g1250.mgb --source 781875 --mode auto --gpu-no-block-rows $C
r bc-lux-auto $B/mgraph run bc /tmp/datasets/luxembourg_osm.mtx.zst --mode auto --sources 4 $C
r san-bc compute-sanitizer --tool memcheck $B/mgraph run bc grid:300 --source 45150 --backend cuda --mode auto --validate --no-cache --trials 1
for i in 1 2; do for b in old new; do M=/tmp/mgbin/mgraph; [ $b = old ] && M=/tmp/mgold/mgraph
  r lux-bc-$b-$i $M run bc /tmp/datasets/luxembourg_osm.mtx.zst --backend cuda --mode auto --trials 20 --cache-dir /tmp/c
  r g1250-bc-$b-$i $M run bc /tmp/g1250.mgb --source 781875 --backend cuda --mode auto --trials 8 --cache-dir /tmp/c
done; done
echo "done $(t)"

#!/usr/bin/env bash
# one GPU: b47 (ppr on the device's PageRank with a teleport set) against b46: tests, memcheck, ppr/pr R-MAT 25 and 22
L=/tmp/m77logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in b46 b47; do mkdir -p /tmp/$b; for f in .device-carry/$b/*.xz; do xz -dc $f > /tmp/$b/$(basename $f .xz); done; chmod +x /tmp/$b/*; done
B=/tmp/b47; nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 300 $B/gpu.test -test.run 'TestPageRankAllShapes|TestOperatorAppsAllShapes|TestPartitionedPageRank$|TestPageRankOnDatasets' > $L/gpu-tests.txt 2>&1; echo "rc=$?" >> $L/gpu-tests.txt)
echo "gpu tests ($(t)): $(grep -E '^(--- FAIL|ok|FAIL|PASS|rc=)' $L/gpu-tests.txt | tr '\n' ' ') $(grep -E 'Error' -A4 $L/gpu-tests.txt | head -12 | tr '\n' '|')"
(cd cmd/mgraph && PATH=$B:$PATH timeout 200 $B/cmd.test -test.run 'Ops|TestRunPartitioned$' > $L/cmd-tests.txt 2>&1; echo "rc=$?" >> $L/cmd-tests.txt)
echo "cmd tests ($(t)): $(grep -E '^(--- FAIL|ok|FAIL|PASS|rc=)' $L/cmd-tests.txt | tr '\n' ' ') $(grep -E 'Error' -A4 $L/cmd-tests.txt | head -12 | tr '\n' '|')"
(cd gpu && timeout 200 compute-sanitizer --tool memcheck $B/gpu.test -test.run 'TestPageRankAllShapes' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"
$B/mgraph gen rmat:25:16 -o /tmp/r25.mgb > /dev/null 2>&1; echo "gen ($(t))"
r() { local tag=$1; shift; timeout 200 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)) rc=$?: $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s \(best trial: engine [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -oE 'cuda×[0-9]+, [^:]*:' $L/$tag.txt | head -1) $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-200 | tr '\n' '|')"; }
r val22 $B/mgraph run ppr rmat:22:16 --backend cuda --source 1 --trials 2 --validate --no-cache
for i in 1 2; do for b in b46 b47; do
  r ppr-$b-$i /tmp/$b/mgraph run ppr /tmp/r25.mgb --backend cuda --source 1 --trials 8 --cache-dir /tmp/c
  r pr-$b-$i /tmp/$b/mgraph run pr /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c
done; done
r ppr-b47-twc $B/mgraph run ppr /tmp/r25.mgb --backend cuda --source 1 --trials 4 --lb twc --cache-dir /tmp/c
r ppr-b47-3src $B/mgraph run ppr /tmp/r25.mgb --backend cuda --sources 3 --trials 8 --cache-dir /tmp/c
echo "done $(t)"

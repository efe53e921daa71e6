#!/usr/bin/env bash
# one GPU (b23 = HEAD's code): racecheck on the async rounds over rows (TestAsyncOnce) and the weighted transpose
cd "$(dirname "$0")/.."
B=/tmp/b23; mkdir -p $B $OUT; xz -dc .device-carry/b23/gpu.test.xz > $B/gpu.test; chmod +x $B/gpu.test
nvidia-smi --query-gpu=name --format=csv,noheader
cd gpu
for tr in TestAsyncOnce TestBuildInMatchesHost; do
 timeout 250 compute-sanitizer --tool racecheck $B/gpu.test -test.count=1 -test.run "^$tr\$" > $OUT/racecheck-$tr.txt 2>&1; echo "rc=$?" >> $OUT/racecheck-$tr.txt
 echo "$tr: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|^ok|^PASS|^FAIL' $OUT/racecheck-$tr.txt | tr '\n' ' ') $(tail -1 $OUT/racecheck-$tr.txt)"
done

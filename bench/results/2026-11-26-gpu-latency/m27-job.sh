#!/usr/bin/env bash
# one GPU: Brandes' backward pass over queue places (b7) against HEAD (b6): tests, sanitizer, luxembourg A/B, traces
A=/tmp/mgA; B=/tmp/mgB; L=/tmp/m27logs; mkdir -p $A $B $L
xz -dc .device-carry/b6/mgraph.xz > $A/mgraph; for f in .device-carry/b7/*.xz; do xz -dc $f > $B/$(basename $f .xz); done; chmod +x $A/* $B/*
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 150 $B/gpu.test -test.count=1 -test.v -test.run 'TestBlock|TestCluster|TestBC|TestSumProgramsAllModesAllShapes|TestSumProgramsOnDatasets' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal|^--- PASS" $L/tests.txt | head -30
(cd gpu && timeout 120 compute-sanitizer --tool memcheck $B/gpu.test -test.count=1 -test.run 'TestBlockRows' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(tail -1 $L/memcheck.txt)"
(cd gpu && timeout 150 compute-sanitizer --tool racecheck $B/gpu.test -test.count=1 -test.run 'TestBlockRows' > $L/racecheck.txt 2>&1; echo "rc=$?" >> $L/racecheck.txt)
echo "racecheck ($(t)): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $L/racecheck.txt) $(tail -1 $L/racecheck.txt)"
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for round in 1 2 3; do for M in A B; do D=/tmp/mg$M
 echo "r$round $M lux bc: $($D/mgraph run bc $X --backend cuda --source 0 --trials 20 $( [ $round = 1 ] && echo --validate ) 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|validation took [0-9.]+ ms' | tr '\n' ' ')"
 echo "r$round $M lux bc 8 sources: $($D/mgraph run bc $X --backend cuda --sources 8 --trials 5 $( [ $round = 1 ] && echo --validate ) 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"
done; done
for M in A B; do D=/tmp/mg$M
 $D/mgraph run bc $X --backend cuda --source 0 --trials 3 --trace $L/bc-$M.json > /dev/null 2>&1
 $D/mgraph run bfs $X --backend cuda --source 0 --trials 3 --trace $L/bfs-$M.json > /dev/null 2>&1
done
python3 - <<'PY'
import json,glob
for f in sorted(glob.glob('/tmp/m27logs/*.json')):
    try:
        d=json.load(open(f))
    except Exception as e:
        print(f, e); continue
    s=json.dumps(d)[:600]
    print(f, s)
PY
echo "done $(t)"

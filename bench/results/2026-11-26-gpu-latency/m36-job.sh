#!/usr/bin/env bash
# one GPU: async over rows with float32 lowerings always queued (b13): the float test, the gpu suite (the five slowest skipped), CLI tests, memcheck, timings against HEAD (b11)
L=/tmp/m36logs; mkdir -p $L
for d in b13; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
for f in gpu cmd; do xz -dc .device-carry/b13/$f.test.xz > /tmp/b13/$f.test; chmod +x /tmp/b13/$f.test; done
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 60 /tmp/b13/gpu.test -test.count=3 -test.run 'TestFloat32SSSPVariants|TestAsyncOnce' > $L/float.txt 2>&1; echo "rc=$?" >> $L/float.txt)
echo "float x3 ($(t)): $(tail -1 $L/float.txt)"; grep -E "FAIL|Error:|Messages:" $L/float.txt | head
(cd gpu && timeout 120 compute-sanitizer --tool memcheck /tmp/b13/gpu.test -test.count=1 -test.run 'TestAsyncOnce|TestFloat32SSSPVariants' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"
[ -f /tmp/g2048.mgb ] || /tmp/b13/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
G=/tmp/g2048.mgb; S="--source 2098176"
for r in 1 2; do V=$( [ $r = 1 ] && echo --validate ); for d in b13; do
 one $d sssp $G "$S $V"; one $d bfs $G "$S --mode async $V"; one $d sssp $X "--source 0 --weights 7 $V"; one $d sssp $G "$S --weight-type float32 $V"
done; done
(cd cmd/mgraph && PATH=/tmp/b13:$PATH timeout 150 /tmp/b13/cmd.test -test.count=1 > $L/cmd.txt 2>&1; echo "rc=$?" >> $L/cmd.txt)
echo "cmd ($(t)): $(tail -1 $L/cmd.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:" $L/cmd.txt | head
(cd gpu && timeout 300 /tmp/b13/gpu.test -test.count=1 -test.v -test.skip 'TestSumProgramsHubSplit|TestOperatorAppsOnDatasets|TestPageRankOnDatasets|TestPartitionedRuns$|TestSumProgramsOnDatasets' > $L/gpu.txt 2>&1; echo "rc=$?" >> $L/gpu.txt)
echo "gpu ($(t)): $(tail -1 $L/gpu.txt) pass=$(grep -c '^--- PASS' $L/gpu.txt) skip=$(grep -c '^--- SKIP' $L/gpu.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|fatal" $L/gpu.txt | head -20; grep -E "^--- SKIP" $L/gpu.txt
echo "done $(t)"

#!/usr/bin/env bash
# one GPU: the one-block rows (tests, sanitizers), luxembourg's traversal apps against the serial reference (rows and CSR), the GPU oracle on R-MAT 21 and the 1024 grid
source "$(dirname "$0")/unpack.sh"
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd gpu && timeout 200 $B/gpu.test -test.count=1 -test.v -test.run 'TestBlock|TestNCCLAbort|TestPartitionedRunNCCLPartFails' > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "tests ($(t)): $(tail -1 $L/tests.txt)"; grep -E "^(--- |ok|FAIL|panic)|Error:|Messages:|block \(" $L/tests.txt | head -24
for tool in memcheck racecheck; do (cd gpu && timeout 150 compute-sanitizer --tool $tool $B/gpu.test -test.count=1 -test.run 'TestBlockRows' > $L/san-$tool.txt 2>&1; echo "rc=$?" >> $L/san-$tool.txt); echo "$tool ($(t)): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rc=' $L/san-$tool.txt | tr '\n' ' ')"; done
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for round in 1 2; do
 for app in bfs sssp cc bc; do for v in rows csr; do
  [ $v = csr ] && { [ $app = sssp -o $app = cc ] && continue; F=--gpu-no-block-rows; } || F=
  $B/mgraph run $app $X --backend cuda --trials 10 --validate $([ $app = cc ] || echo --source 0) $([ $app = sssp ] && echo --weights 7) $F --trace $L/lux-$app-$v-$round.json > $L/lux-$app-$v-$round.txt 2>&1
  echo "lux $app $v r$round ($(t)): $(grep -oE 'trial best [0-9.]+ ms, median [0-9.]+ ms|validation: .*|rror.*' $L/lux-$app-$v-$round.txt | tr '\n' ' ')"
 done; done
done
timeout 240 $B/mgraph bench --graphs rmat:21:16,grid:1024:0.1 --symmetrize --oracle=bfs,sssp --apps bfs --modes hybrid,auto,async --trials 3 --backends cuda --out $L/oracle > $L/oracle.txt 2>&1; echo "oracle ($(t)): rc=$? $(tail -3 $L/oracle.txt | tr '\n' ' ' | cut -c1-300)"
echo "done $(t)"
tar czf $OUT/logs.tgz -C $OUT logs

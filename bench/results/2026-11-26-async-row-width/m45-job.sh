#!/usr/bin/env bash
# one GPU (b20: + the ring's signed overflow check): CLI tests, float32 x3, memcheck, GAPBS side by side on this host, luxembourg x3
L=/tmp/m45logs; mkdir -p $L; B=/tmp/b20; mkdir -p $B
for f in mgraph gpu.test cmd.test; do xz -dc .device-carry/b20/$f.xz > $B/$f; chmod +x $B/$f; done
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
(cd cmd/mgraph && PATH=$B:$PATH timeout 200 $B/cmd.test -test.count=1 > $L/cmd.txt 2>&1; echo "rc=$?" >> $L/cmd.txt)
echo "cmd ($(t)): $(tail -2 $L/cmd.txt | tr '\n' ' ')"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/cmd.txt | head
(cd gpu && timeout 150 $B/gpu.test -test.count=3 -test.run 'TestFloat32|TestAsyncOnce|TestClusterRuns' > $L/f32.txt 2>&1; echo "rc=$?" >> $L/f32.txt)
echo "float32 x3 ($(t)): $(tail -2 $L/f32.txt | tr '\n' ' ')"
(cd gpu && timeout 150 compute-sanitizer --tool memcheck $B/gpu.test -test.count=1 -test.run 'TestAsyncOnce|TestFloat32SSSPVariants' > $L/memcheck.txt 2>&1; echo "rc=$?" >> $L/memcheck.txt)
echo "memcheck ($(t)): $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tail -1) $(tail -1 $L/memcheck.txt)"; grep -E "^--- FAIL|Error:" -A3 $L/memcheck.txt | head
bash scripts/side-by-side.sh --mgraph $B/mgraph --gapbs .device-carry/gapbs --out /tmp/sbs --graphs grid:2048:0.1@2098176 --apps bfs,sssp,bc --mode auto --threads 16 --timeout 120 > $L/sbs.txt 2>&1
echo "side-by-side ($(t)):"; cat /tmp/sbs/table.md; cp /tmp/sbs/table.md /tmp/sbs/results.tsv $L/ 2>/dev/null
X=.device-carry/datasets/luxembourg_osm.mtx.zst
for r in 1 2 3; do for a in bfs sssp bc cc; do echo "lux $a r$r: $($B/mgraph run $a $X --backend cuda --trials 20 --source 0 --weights 7 --validate 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation took [0-9.]+ [mµ]s' | tr '\n' ' ')"; done; done
echo "done $(t)"

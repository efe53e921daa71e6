#!/usr/bin/env bash
# one GPU (b21 = 39816bb): racecheck/synccheck on the changed kernels; directed BFS pull vs push-only from the sources that reach the most (GPU and CPU 16 threads)
L=/tmp/m48logs; mkdir -p $L; B=/tmp/b21; mkdir -p $B
for f in mgraph gpu.test; do xz -dc .device-carry/b21/$f.xz > $B/$f; chmod +x $B/$f; done
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader; nproc
for tool in racecheck synccheck; do
 (cd gpu && timeout 200 compute-sanitizer --tool $tool $B/gpu.test -test.count=1 -test.run 'TestModePull|TestBuildInMatchesHost|TestAsyncOnce|TestClusterRuns' > $L/$tool.txt 2>&1; echo "rc=$?" >> $L/$tool.txt)
 echo "$tool ($(t)): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool.txt | tail -2 | tr '\n' ' ') $(tail -1 $L/$tool.txt)"
done
D=.device-carry/datasets
for g in uk-2007-05_100000:15455,13496,13399,12302,74606 cit-HepPh:16321,14195,30120,33273,29457; do name=${g%%:*}; srcs=${g#*:}
 for be in "cuda" "cpu --threads 16"; do for s in ${srcs//,/ }; do
  a=$($B/mgraph run bfs $D/$name.mtx.zst --backend $be --trials 20 --source $s 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s')
  b=$($B/mgraph run bfs $D/$name.mtx.zst --backend $be --trials 20 --source $s --no-pull 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s')
  echo "$name ${be%% *} $s pull: $a | push-only: $b"
 done; done
done
echo "done $(t)"

#!/usr/bin/env bash
# one GPU host: the serial references alone (apps/ref, best of 9) and GAPBS on one thread, against the GPU (b6) on luxembourg, same lease
B=/tmp/mgbin; mkdir -p $B
for f in .device-carry/b8/*.xz .device-carry/b6/mgraph.xz; do xz -dc $f > $B/$(basename $f .xz); chmod +x $B/$(basename $f .xz); done
G=.device-carry/gapbs; X=.device-carry/datasets/luxembourg_osm.mtx.zst
nvidia-smi --query-gpu=name --format=csv,noheader; lscpu | grep "Model name"
for round in 1 2; do
$B/reftime $X 0
for app in bfs bc; do echo "gapbs-1T $app: $(OMP_NUM_THREADS=1 $G/$app -f $B/lux.sg -r 0 -n 16 $([ $app = bc ] && echo -i 1) 2>&1 | grep -E 'Trial Time' | awk '{print $3}' | sort -n | head -1)"; done
echo "gapbs-1T sssp: $(OMP_NUM_THREADS=1 $G/sssp -f $B/lux.wsg -r 0 -n 16 -d 32 2>&1 | grep -E 'Trial Time' | awk '{print $3}' | sort -n | head -1)"
echo "gapbs-1T cc: $(OMP_NUM_THREADS=1 $G/cc -f $B/lux.sg -n 16 2>&1 | grep -E 'Trial Time' | awk '{print $3}' | sort -n | head -1)"
for app in bfs sssp cc bc; do echo "gpu $app: $($B/mgraph run $app $X --backend cuda --trials 20 $([ $app = cc ] || echo --source 0) $([ $app = sssp ] && echo --weights 7) 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s')"; done
done

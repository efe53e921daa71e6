#!/usr/bin/env bash
# one GPU: async runs over rows (b13 = 14265b8), 2 / 3 / 4 blocks per SM, two rounds
L=/tmp/m37logs; mkdir -p $L /tmp/b13
xz -dc .device-carry/b13/mgraph.xz > /tmp/b13/mgraph; chmod +x /tmp/b13/mgraph
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
M=/tmp/b13/mgraph
$M gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
$M gen grid:1024:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g1024.mgb > /dev/null 2>&1
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $(basename $2) $3: $($M run $1 $2 --backend cuda --trials 8 $3 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s' | tr '\n' ' ')"; }
for r in 1 2; do for b in 2 3 4; do
 one sssp /tmp/g2048.mgb "--source 2098176 --gpu-async-blocks $b"
 one bfs /tmp/g2048.mgb "--source 2098176 --mode async --gpu-async-blocks $b"
 one cc /tmp/g2048.mgb "--mode async --gpu-async-blocks $b"
 one sssp /tmp/g1024.mgb "--source 524800 --gpu-async-blocks $b"
 one sssp $X "--source 0 --weights 7 --gpu-async-blocks $b"
 one bfs $X "--source 0 --mode async --gpu-async-blocks $b"
done; done
echo "done $(t)"

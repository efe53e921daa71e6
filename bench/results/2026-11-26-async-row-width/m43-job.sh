#!/usr/bin/env bash
# one GPU (b18): BFS and BC in auto with and without the cluster, middle and corner sources
L=/tmp/m43logs; mkdir -p $L
for d in b18; do mkdir -p /tmp/$d; [ -x /tmp/$d/mgraph ] || { xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; }; done
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
for s in 1024 2048 4096; do [ -f /tmp/g$s.mgb ] || /tmp/b18/mgraph gen grid:$s:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g$s.mgb > /dev/null 2>&1; done
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 6 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
for g in "1024 524800" "1024 0" "2048 2098176" "2048 0" "4096 8390656" "4096 0"; do set -- $g; G=/tmp/g$1.mgb; S="--source $2"
  one b18 bfs $G "$S"
  one b18 bfs $G "$S --gpu-no-cluster"
  one b18 bc $G "$S"
  one b18 bc $G "$S --gpu-no-cluster"
done
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one b18 bc $X "--source 0 --gpu-no-block"
one b18 bc $X "--source 0"
one b18 bfs $X "--source 0 --gpu-no-block"
echo "done $(t)"

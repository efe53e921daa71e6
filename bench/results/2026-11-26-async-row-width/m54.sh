#!/usr/bin/env bash
# one GPU: MG_ASYNC_KEEP 64 (bk64) against 128 (b23) on the async runs over rows
cd "$(dirname "$0")/.."
for d in b23 bk64; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
nvidia-smi --query-gpu=name --format=csv,noheader
for s in 1024 2048; do [ -f /tmp/g$s.mgb ] || /tmp/b23/mgraph gen grid:$s:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g$s.mgb > /dev/null 2>&1; done
X=.device-carry/datasets/luxembourg_osm.mtx.zst
one() { echo "$1 $2 $(basename $3) $4: $(/tmp/$1/mgraph run $2 $3 --backend cuda --trials 8 $4 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' | tr '\n' ' ')"; }
for r in 1 2; do V=$([ $r = 1 ] && echo --validate); for d in b23 bk64; do
 one $d sssp /tmp/g2048.mgb "--source 2098176 $V"; one $d bfs /tmp/g2048.mgb "--source 2098176 $V"
 one $d sssp /tmp/g1024.mgb "--source 524800 $V"; one $d sssp $X "--source 0 --weights 7 --trials 20 $V"
done; done

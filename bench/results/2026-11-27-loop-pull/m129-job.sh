#!/usr/bin/env bash
# one GPU. HEAD (b90): BFS auto (in-loop pulls) against every fixed mode on R-MAT 21 and Kronecker 24 (issue 18's 10 % bar), with b82 (before) for auto.
L=/tmp/m129logs; mkdir -p $L /tmp/mg82; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
xz -dc .device-carry/b82/mgraph.xz > /tmp/mg82/mgraph; chmod +x /tmp/mg82/mgraph
nvidia-smi --query-gpu=name --format=csv,noheader
$B/mgraph gen rmat:21:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/r21.mgb > /dev/null 2>&1
$B/mgraph gen kron:24:16 --symmetrize --dedupe --drop-self-loops --weights 5 -o /tmp/k24.mgb > /dev/null 2>&1; echo "gen ($(t))"
one() { local tag=$1; shift; timeout 120 "$@" --backend cuda --cache-dir /tmp/c > $L/$tag.txt 2>&1; echo "$tag: $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s|validation: [a-z]+' $L/$tag.txt | tr '\n' ' ')"; }
for g in r21 k24; do one val-$g $B/mgraph run bfs /tmp/$g.mgb --mode auto --trials 2 --validate; done
for i in 1 2; do for g in r21 k24; do
  one $g-auto-b82-$i /tmp/mg82/mgraph run bfs /tmp/$g.mgb --mode auto --trials 8
  for m in auto hybrid dense sparse pull async; do one $g-$m-$i $B/mgraph run bfs /tmp/$g.mgb --mode $m --trials 8; done
done; done
echo "done $(t)"

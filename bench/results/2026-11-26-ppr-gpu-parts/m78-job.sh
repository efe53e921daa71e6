#!/usr/bin/env bash
# one GPU: b48 (ppr without the host's n-sized teleport vector) against b46 (operators) and b47
L=/tmp/m78logs; mkdir -p $L; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
for b in b46 b47 b48; do mkdir -p /tmp/$b; xz -dc .device-carry/$b/mgraph.xz > /tmp/$b/mgraph; chmod +x /tmp/$b/mgraph; done
nvidia-smi --query-gpu=name --format=csv,noheader
/tmp/b48/mgraph gen rmat:25:16 -o /tmp/r25.mgb > /dev/null 2>&1; echo "gen ($(t))"
r() { local tag=$1; shift; timeout 200 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)) rc=$?: $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s \(best trial: engine [0-9.]+ [mµ]?s, copy [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation' $L/$tag.txt | cut -c1-200 | tr '\n' '|')"; }
r val22 /tmp/b48/mgraph run ppr rmat:22:16 --backend cuda --sources 4 --trials 2 --validate --no-cache
for i in 1 2; do for b in b46 b47 b48; do r ppr-$b-$i /tmp/$b/mgraph run ppr /tmp/r25.mgb --backend cuda --source 1 --trials 8 --cache-dir /tmp/c; done
  r pr-b48-$i /tmp/b48/mgraph run pr /tmp/r25.mgb --backend cuda --trials 8 --cache-dir /tmp/c; done
echo "done $(t)"

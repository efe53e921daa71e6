#!/usr/bin/env bash
cd "$(dirname "$0")/.."
for d in b16 b17; do mkdir -p /tmp/$d; xz -dc .device-carry/$d/mgraph.xz > /tmp/$d/mgraph; chmod +x /tmp/$d/mgraph; done
mkdir -p /tmp/m41logs
[ -f /tmp/g2048.mgb ] || /tmp/b16/mgraph gen grid:2048:0.1 --symmetrize --dedupe --drop-self-loops --weights 7 -o /tmp/g2048.mgb > /dev/null 2>&1
G=/tmp/g2048.mgb; S="--source 2098176"
for d in b16 b17; do /tmp/$d/mgraph run sssp $G $S --backend cuda --trials 3 --validate > /tmp/m41logs/$d.txt 2>&1; echo "$d: $(grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' /tmp/m41logs/$d.txt | tr '\n' ' ')"; grep "PROF b=11" /tmp/m41logs/$d.txt | tail -1 | sed 's/tail64k.*split=[0-9]*//'; done
for d in b16 b17; do /tmp/$d/mgraph run bfs $G $S --mode async --backend cuda --trials 3 --validate > /tmp/m41logs/$d-bfs.txt 2>&1; echo "$d bfs: $(grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+' /tmp/m41logs/$d-bfs.txt | tr '\n' ' ')"; done

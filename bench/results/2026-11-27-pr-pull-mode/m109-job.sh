#!/usr/bin/env bash
# one GPU. b71: PageRank in mode pull (the GPU's pull scheme; refused with --gpu-pr-stream), TestModePull.
L=/tmp/m109logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
r() { local tag=$1; shift; timeout 100 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): rc $? $(grep -oE 'trial best [0-9.]+ [mµ]?s, median [0-9.]+ [mµ]?s' $L/$tag.txt) $(grep -E 'rror|validation|mgraph run' $L/$tag.txt | cut -c1-160 | tr '\n' '|')"; }
(cd /tmp && timeout 200 $B/gpu.test -test.v -test.run 'TestModePull' > $L/gpu-tests.txt 2>&1); rc=$?; echo "gpu tests ($(t)): rc $rc $(grep -E '^(--- FAIL|FAIL)|Error:' $L/gpu-tests.txt | head -5 | cut -c1-200 | tr '\n' '|') passed: $(grep -c -- '--- PASS' $L/gpu-tests.txt)"
for d in coAuthorsDBLP uk-2007-05_100000 cit-HepPh; do r pr-$d-pull $B/mgraph run pr /tmp/datasets/$d.mtx.zst --backend cuda --mode pull --trials 5 --validate --cache-dir /tmp/c; done
r pr-stream-pull $B/mgraph run pr /tmp/datasets/coAuthorsDBLP.mtx.zst --backend cuda --mode pull --gpu-pr-stream --trials 1 --cache-dir /tmp/c
r pr-lux-hybrid $B/mgraph run pr /tmp/datasets/luxembourg_osm.mtx.zst --backend cuda --mode hybrid --trials 5 --validate --cache-dir /tmp/c
echo "done $(t)"

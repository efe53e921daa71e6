#!/usr/bin/env bash
# one GPU. BFS pull kernel A/B: b58 (ad39d55, a group of 8 lanes per vertex), b59 (a lane per vertex, 32 a warp, always),
# b60 (32 a warp on graphs of >= 4 full GPUs of warps, else 4 a warp). memcheck and the pull tests on b60.
L=/tmp/m96logs; mkdir -p $L; for b in b58 b60; do mkdir -p /tmp/$b; xz -dc .device-carry/$b/mgraph.xz > /tmp/$b/mgraph; chmod +x /tmp/$b/mgraph; done
B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
r() { local tag=$1; shift; timeout 120 "$@" > $L/$tag.txt 2>&1; echo "$tag ($(t)): $(grep -oE 'trial best [0-9.]+ [mµ]s, median [0-9.]+ [mµ]s' $L/$tag.txt) $(grep -E 'rror|validation|ERROR SUMMARY' $L/$tag.txt | cut -c1-200 | tr '\n' '|')"; }
for g in "rmat:14:16" "rmat:14:16 --undirected"; do r san-$(echo $g | tr -d ' :-') compute-sanitizer --tool memcheck $B/mgraph run bfs $g --backend cuda --validate --no-cache --trials 2; done
$B/mgraph gen rmat:21:16 --dedupe --drop-self-loops -o /tmp/r21d.mgb > $L/gen-r21d.txt 2>&1
r san-r21d compute-sanitizer --tool memcheck $B/mgraph run bfs /tmp/r21d.mgb --backend cuda --validate --trials 2 --cache-dir /tmp/c
r san-r21d-pull compute-sanitizer --tool memcheck $B/mgraph run bfs /tmp/r21d.mgb --backend cuda --mode pull --validate --trials 1 --cache-dir /tmp/c
(cd /tmp && timeout 100 $B/gpu.test -test.v -test.run 'TestBFSPullSteps|TestModePull|TestPullMatchesCPU|TestPullMinArcs|TestPartitionedBFSPulls|TestBFSDepthLimit' > $L/gpu-tests.txt 2>&1); echo "gpu tests ($(t)): $(grep -E '^(--- |ok|FAIL|PASS)|Error:|Messages' $L/gpu-tests.txt | head -12 | cut -c1-200 | tr '\n' '|')"
$B/mgraph gen kron:24:16 --symmetrize --dedupe --drop-self-loops -o /tmp/k24.mgb > $L/gen-k24.txt 2>&1; echo "gen ($(t))"
for i in 1 2; do for b in b58 b60; do
 for g in /tmp/r21d.mgb /tmp/ds3/uk-2007-05_100000.mtx.zst /tmp/ds3/cit-HepPh.mtx.zst /tmp/ds3/coAuthorsDBLP.mtx.zst; do n=$(basename $g | cut -d. -f1)
  r $n-auto-$b-$i /tmp/$b/mgraph run bfs $g --backend cuda --trials 20 --cache-dir /tmp/c
  [ $b = b60 ] && r $n-nopull-$b-$i /tmp/$b/mgraph run bfs $g --backend cuda --trials 20 --cache-dir /tmp/c --no-pull
 done
 for m in auto pull; do r k24-$m-$b-$i /tmp/$b/mgraph run bfs /tmp/k24.mgb --backend cuda --mode $m --trials 6 --cache-dir /tmp/c; done
done; done
echo "done $(t)"

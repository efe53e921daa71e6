#!/usr/bin/env bash
# one GPU (b21: weighted in-arcs for pull, BC async on directed layouts): gpu suite, CLI, datasets matrix of the changed combos, memcheck
L=/tmp/m46logs; mkdir -p $L; B=/tmp/b21; mkdir -p $B
for f in mgraph gpu.test cmd.test; do xz -dc .device-carry/b21/$f.xz > $B/$f; chmod +x $B/$f; done
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
(cd cmd/mgraph && PATH=$B:$PATH timeout 200 $B/cmd.test -test.count=1 > $L/cmd.txt 2>&1; echo "rc=$?" >> $L/cmd.txt)
echo "cmd ($(t)): $(tail -2 $L/cmd.txt | tr '\n' ' ')"; grep -E "^(--- FAIL|FAIL|panic)|Error:" $L/cmd.txt | head
D=.device-carry/datasets
for g in caidaRouterLevel cit-HepPh coAuthorsDBLP ego-twitter-undirected luxembourg_osm uk-2007-05_100000; do
 for am in "sssp pull" "bc async" "bfs auto" "bc auto" "sssp auto"; do set -- $am
  echo "$g $1 $2: $($B/mgraph run $1 $D/$g.mtx.zst --backend cuda --mode $2 --trials 1 --source 0 --weights 7 --validate 2>&1 | grep -oE 'trial best [0-9.]+ [mµ]s|validation: [a-z]+|rror.*' | tr '\n' ' ')"
 done
done
for c in "bc cit-HepPh async" "sssp cit-HepPh pull" "bc uk-2007-05_100000 async" "sssp uk-2007-05_100000 pull"; do set -- $c
 compute-sanitizer --tool memcheck $B/mgraph run $1 $D/$2.mtx.zst --backend cuda --mode $3 --trials 1 --source 0 --weights 7 --validate > $L/mc-$1-$2.txt 2>&1
 echo "memcheck $c ($(t)): $(grep -E 'ERROR SUMMARY|validation: ok' $L/mc-$1-$2.txt | tr '\n' ' ')"
done
(cd gpu && timeout 480 $B/gpu.test -test.count=1 -test.v -test.skip "HubSplit" > $L/tests.txt 2>&1; echo "rc=$?" >> $L/tests.txt)
echo "gpu suite ($(t)): $(tail -1 $L/tests.txt) pass=$(grep -c '^--- PASS' $L/tests.txt) skip=$(grep -c '^--- SKIP' $L/tests.txt) fail=$(grep -c '^--- FAIL' $L/tests.txt)"; grep -E "^(--- FAIL|FAIL|panic)|Error:|Messages:|Error Trace" $L/tests.txt | head -30
echo "done $(t)"

#!/usr/bin/env bash
# four GPUs (background job): every partitioned app on every dataset, parts on one GPU, 2 and 4 GPUs, validated (time-boxed)
B=/tmp/mgbin; L=/tmp/m60logs; mkdir -p $L; D=$PWD/.device-carry/datasets
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
pass=0; fail=0
for ds in luxembourg_osm cit-HepPh uk-2007-05_100000 caidaRouterLevel coAuthorsDBLP ego-twitter-undirected; do
  for app in bfs sssp cc pr bc; do
    extra=""; [ $app = sssp ] && extra="--weights 7"; [ $app = bc ] && extra="--sources 2"
    for cfg in "--backend cuda --parts 3" "--gpus 2" "--gpus 4"; do
      [ $(( $(date +%s)-T0 )) -gt 320 ] && break 3
      tag=$ds-$app-$(echo $cfg | tr -d ' -')
      timeout 120 $B/mgraph run $app $D/$ds.mtx.zst $cfg --partition random --no-cache --trials 1 --validate $extra > $L/$tag.txt 2>&1; rc=$?
      if [ $rc = 0 ] && grep -q "validation: ok" $L/$tag.txt; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $tag rc=$rc: $(grep -iE 'rror|FAIL|usage' $L/$tag.txt | head -3 | cut -c1-200 | tr '\n' '|')"; fi
    done
  done
  echo "$ds ($(t)): pass $pass fail $fail"
done
echo "total: pass $pass fail $fail"
echo "done $(t)"

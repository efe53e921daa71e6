#!/usr/bin/env bash
# one GPU. ncu kernel list and durations of luxembourg BFS and BC (auto, source 0), 2 trials each, b75 (HEAD: block 2-lane rows).
L=/tmp/m113logs; mkdir -p $L; B=/tmp/mgbin; T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
D=/tmp/datasets/luxembourg_osm.mtx.zst
$B/mgraph run bfs $D --backend cuda --mode auto --source 0 --trials 2 --cache-dir /tmp/c > $L/warm.txt 2>&1
for app in bfs bc; do
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/mgraph run $app $D --backend cuda --mode auto --source 0 --trials 3 --cache-dir /tmp/c > $L/ncu-$app.csv 2> $L/ncu-$app.err; echo "ncu $app rc $? ($(t))"
python3 - $L/ncu-$app.csv <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; ki=h.index('Kernel Name'); vi=h.index('Metric Value'); ii=h.index('ID')
ks=[(int(r[ii]),r[ki][:90],float(r[vi].replace(',',''))) for r in rows[1:] if r[vi].replace(',','').replace('.','').isdigit()]
n=len(ks); print('kernels', n)
for k in ks[-40:]: print(k)
PY
done
echo "done $(t)"

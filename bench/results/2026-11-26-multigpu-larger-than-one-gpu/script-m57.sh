#!/usr/bin/env bash
# four GPUs (background job): SSSP on an R-MAT whose weighted layout does not fit one of the host's GPUs, partitioned over all four
B=/tmp/mgbin; L=/tmp/m57logs; mkdir -p $L
T0=$(date +%s); t() { echo "$(( $(date +%s)-T0 ))s"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
nproc; free -g | head -2; df -h /tmp | tail -1
MIB=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
# a weighted layout takes >= 16 B an arc on a GPU (sparse dst+weights, dense src+weights):
# 80 GB cards: rmat:27:24 (6.4G arcs, >= 103 GB), 4 parts; 141 GB cards: rmat:28:19 (10.2G arcs, >= 163 GB), 8 parts (2 a GPU, each < 2^31 arcs)
if [ "$MIB" -lt 100000 ]; then SPEC=rmat:27:24; P=4; else SPEC=rmat:28:19; P=8; fi
echo "GPU memory $MIB MiB: $SPEC, $P parts"
MEMK=$(awk '/MemTotal/ {print $2}' /proc/meminfo)
export GOMEMLIMIT=$(( MEMK * 85 / 100 / 1024 ))MiB
echo "GOMEMLIMIT=$GOMEMLIMIT"
( while sleep 10; do echo "$(t) $(free -g | awk '/Mem:/ {print $3}') GiB used; $(nvidia-smi --query-gpu=memory.used --format=csv,noheader | tr '\n' ' ')"; done ) > $L/mem.txt 2>&1 &
MON=$!
/usr/bin/time -v $B/mgraph run sssp $SPEC --undirected --weights 7 --gpus 4 --parts $P --partition random --no-cache --trials 3 --source 0 --validate > $L/sssp-big.txt 2>&1
echo "sssp-big ($(t)) rc=$?: $(grep -E 'trial best|partitioning|partitioned into|layouts on the GPUs|last trial|valid|rror|Maximum resident|Elapsed' $L/sssp-big.txt | cut -c1-300 | tr '\n' '|')"
kill $MON
echo "done $(t)"

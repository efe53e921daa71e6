# poll.sh J LIMIT: wait for /tmp/J.done or LIMIT seconds, print the job's log
J=$1; LIM=${2:-540}; S=$(date +%s)
while [ ! -f /tmp/$J.done ] && [ $(( $(date +%s)-S )) -lt $LIM ]; do sleep 3; done
[ -f /tmp/$J.done ] && echo "== $J finished" || echo "== $J still running after ${LIM}s"
cat /tmp/$J.log

#!/usr/bin/env bash
# launch.sh J [LIMIT]: unpack binaries, start J-job.sh detached (once), poll, return logs in $OUT
cd "$(dirname "$0")/.."; J=$1
if [ ! -f /tmp/$J.started ]; then
  . .device-carry/unpack.sh; cp -r .device-carry/datasets .device-carry/ds3 /tmp/ 2>/dev/null
  cp .device-carry/$J-job.sh /tmp/; touch /tmp/$J.started
  setsid nohup bash -c "bash /tmp/$J-job.sh > /tmp/$J.log 2>&1; touch /tmp/$J.done" > /dev/null 2>&1 &
fi
bash .device-carry/poll.sh $J ${2:-540}
[ -n "$OUT" ] && tar czf $OUT/$J.tgz -C /tmp $J.log ${J}logs 2>/dev/null; true

#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m50-job.sh > /tmp/m50.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m50 ${1:-500}

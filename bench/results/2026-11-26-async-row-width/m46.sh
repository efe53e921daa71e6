#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m46-job.sh > /tmp/m46.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m46 ${1:-500}

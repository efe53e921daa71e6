#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m48-job.sh > /tmp/m48.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m48 ${1:-500}

#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m52-job.sh > /tmp/m52.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m52 ${1:-500}

#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m45-job.sh > /tmp/m45.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m45 ${1:-500}

#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m55-job.sh > /tmp/m55.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m55 ${1:-500}

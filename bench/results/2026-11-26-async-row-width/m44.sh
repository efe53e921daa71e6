#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m44-job.sh > /tmp/m44.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m44 ${1:-500}

#!/usr/bin/env bash
cd "$(dirname "$0")/.."

setsid nohup bash .device-carry/m42-job.sh > /tmp/m42.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m42 ${1:-500}

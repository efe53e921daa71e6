#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m47-job.sh > /tmp/m47.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m47 ${1:-500}

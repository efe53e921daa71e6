#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m43-job.sh > /tmp/m43.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m43 ${1:-500}

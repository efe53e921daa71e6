#!/usr/bin/env bash
cd "$(dirname "$0")/.."
setsid nohup bash .device-carry/m51-job.sh > /tmp/m51.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m51 ${1:-500}

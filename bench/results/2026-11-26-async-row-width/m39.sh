#!/usr/bin/env bash
cd "$(dirname "$0")/.."
rm -rf /tmp/m39src; mkdir -p /tmp/m39src/.device-carry /tmp/m39src/cmd /tmp/m39src/bench; cp -r gpu /tmp/m39src/; cp -r cmd/mgraph /tmp/m39src/cmd/; cp -r .device-carry/datasets .device-carry/gapbs .device-carry/cl /tmp/m39src/.device-carry/ 2>/dev/null; cp -r scripts /tmp/m39src/; cp -r bench/plans /tmp/m39src/bench/
setsid nohup bash .device-carry/m39-job.sh > /tmp/m39.log 2>&1 < /dev/null &
bash .device-carry/poll.sh m39 ${1:-500}

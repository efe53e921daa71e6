# unpack.sh: decompress the newest (or $B) binaries folder into /tmp/mgbin
B=${B:-$(ls -d .device-carry/b[0-9]* | sort -V | tail -1)}
mkdir -p /tmp/mgbin; for f in $B/*.xz; do xz -dc $f > /tmp/mgbin/$(basename $f .xz); chmod +x /tmp/mgbin/$(basename $f .xz); done
echo "unpacked $B: $(ls /tmp/mgbin | tr '\n' ' ')"

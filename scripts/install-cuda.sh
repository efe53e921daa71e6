#!/usr/bin/env bash
# install-cuda.sh: install Debian's CUDA toolkit (nvcc 11.8 on bookworm).
#
# nvidia-cuda-toolkit lives in Debian's non-free component (some of its
# dependencies in contrib). This script enables those components by editing
# the EXISTING Debian source entry (deb822 /etc/apt/sources.list.d/debian.sources,
# or the one-line /etc/apt/sources.list if that is what the system uses); it
# never adds a new host or a new file. It is idempotent: components already
# present are not added twice, and an installed nvcc short-circuits the install.
#
# Usage: scripts/install-cuda.sh      (as root, or with sudo available)
set -euo pipefail

WANT=(contrib non-free non-free-firmware)
DEB822=/etc/apt/sources.list.d/debian.sources
ONELINE=/etc/apt/sources.list

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then SUDO="sudo"; else
		echo "install-cuda.sh: must run as root (or with sudo)" >&2; exit 1
	fi
fi

# add_components FILE MODE: rewrite FILE with the wanted components added to
# every Debian entry. MODE is deb822 (Components: lines) or oneline (deb lines
# pointing at a debian.org / Debian mirror host).
add_components() {
	local file=$1 mode=$2 tmp
	tmp=$(mktemp)
	awk -v mode="$mode" -v want="${WANT[*]}" '
	BEGIN { n = split(want, w, " ") }
	function addmissing(line,   i, have, k, f, m) {
		m = split(line, f, /[ \t]+/)
		for (k = 1; k <= m; k++) have[f[k]] = 1
		for (i = 1; i <= n; i++) if (!(w[i] in have)) line = line " " w[i]
		return line
	}
	mode == "deb822" && /^Components:/ { print addmissing($0); next }
	mode == "oneline" && /^[ \t]*deb(-src)?[ \t]/ && /debian/ { print addmissing($0); next }
	{ print }
	' "$file" >"$tmp"
	if cmp -s "$tmp" "$file"; then
		echo "install-cuda.sh: $file already has: ${WANT[*]}"
	else
		# keep a backup outside sources.list.d (apt warns about unknown names there)
		$SUDO cp "$file" "/var/backups/$(basename "$file").orig-mgraph" 2>/dev/null || true
		$SUDO tee "$file" <"$tmp" >/dev/null
		echo "install-cuda.sh: added ${WANT[*]} to $file"
	fi
	rm -f "$tmp"
}

if [ -f "$DEB822" ]; then
	add_components "$DEB822" deb822
elif [ -f "$ONELINE" ] && grep -Eq '^[[:space:]]*deb[[:space:]].*debian' "$ONELINE"; then
	add_components "$ONELINE" oneline
else
	echo "install-cuda.sh: no Debian source entry found ($DEB822 or $ONELINE)" >&2
	exit 1
fi

if command -v nvcc >/dev/null && dpkg -s nvidia-cuda-toolkit >/dev/null 2>&1; then
	echo "install-cuda.sh: nvidia-cuda-toolkit already installed"
else
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -q
	$SUDO apt-get install -y -q --no-install-recommends nvidia-cuda-toolkit
fi

nvcc --version | tail -n 2

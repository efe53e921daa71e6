#!/usr/bin/env bash
# side-by-side.sh: GAPBS (the CPU reference) and mgraph on the same graph
# files and the same sources, in one run on one machine, into one Markdown
# table. Needs no Go and no network: only a built mgraph, the GAPBS binaries,
# bash 4, coreutils (od, timeout) and awk.
set -uo pipefail

prog=side-by-side.sh

usage() {
	cat <<'EOF'
Usage: scripts/side-by-side.sh --mgraph BIN --gapbs DIR [options] [-- MGRAPH-RUN-FLAGS...]

Times GAPBS and 'mgraph run' on the same graphs and sources, one machine,
one run; writes OUT/table.md (printed at the end), OUT/results.tsv,
OUT/env.txt and every command's full log under OUT/raw/.

Required:
  --mgraph BIN        the mgraph binary (a cuda build for --backend cuda)
  --gapbs DIR         folder with the GAPBS binaries bfs sssp cc pr bc converter

Options:
  --out DIR           output folder (default out/side-by-side)
  --data DIR          graph files (.mgb for mgraph, .sg/.wsg for GAPBS) and the
                      chosen sources; files already there are reused
                      (default OUT/data)
  --threads N         GAPBS OMP_NUM_THREADS and mgraph --threads (default: nproc)
  --trials N          trials per app for both tools (default: bfs 16, sssp 8,
                      cc 16, pr 8, bc 8 as in the anchors README; --quick: 3)
  --backend B         mgraph backend: cuda (default) or cpu
  --mode M            mgraph mode: hybrid (default), dense, sparse, async or auto
  --graphs LIST       comma-separated generator specs, each optionally SPEC@SOURCE
                      (default rmat:21:16,grid:2048:0.1,kron:24:16)
  --apps LIST         comma-separated, from bfs,sssp,cc,pr,bc (default: all five)
  --quick             small graphs (rmat:16:16,grid:256:0.1) and 3 trials
  --gapbs-kron-gen    for kron:S[:EF] graphs GAPBS generates its own Graph500
                      graph (-g S -k EF) and picks its own sources instead of
                      reading the converted file (saves the text conversion;
                      the two tools then run on different graphs)
  --timeout S         kill any single command after S seconds (default 0: none)
  --cache             let mgraph use a layout cache in DATA/layout-cache
                      (default: --no-cache, every run preprocesses; preprocessing
                      is not part of the timed trials either way)
  --validate          GAPBS -v and mgraph --validate (outside the timed trials)
  --keep-text         keep the GAPBS text edge list (DATA/*.gapbs.wel)
  -h, --help          this text
  -- FLAGS...         passed to every 'mgraph run' (e.g. -- --gpu-no-loop)

Graphs: 'mgraph gen SPEC --symmetrize --dedupe --drop-self-loops --weights 7'
writes DATA/NAME.mgb; 'mgraph convert' writes it as .wel, lines starting
with # or % are removed (GAPBS's readers reject them), and GAPBS's converter
builds NAME.sg (-s -b) and NAME.wsg (-s -wb) once, so only kernels are timed.
Sources: grid:SIDE -> the centre vertex (SIDE/2)*SIDE+SIDE/2, others -> 0; if
that vertex has no arcs, the next vertex that has (read from the .mgb).

Commands (T trials, S source, N threads):
  GAPBS:  bfs -f G.sg -r S -n T | sssp -f G.wsg -r S -n T -d 32 |
          cc -f G.sg -n T | pr -f G.sg -n T -i 20 -t 1e-4 | bc -f G.sg -r S -n T -i 1
  mgraph: run APP G.mgb --backend B --mode M --trials T --threads N
          [--source S] [pr: --tolerance 1e-4 --max-iterations 20]
Times: GAPBS "Trial Time" (best) and "Average Time"; mgraph's trial times
(best, median) and, when its output reports them, engine and copy times.
speedup = GAPBS best trial / mgraph best trial. A failing command is an
ERROR cell and the run goes on; the exit status is 1 if anything failed.

Example:
  scripts/side-by-side.sh --mgraph bin/mgraph --gapbs gapbs --out out/sbs
  scripts/side-by-side.sh --mgraph /tmp/mgraph --gapbs gapbs --backend cpu --threads 2 --quick
EOF
}

die() { echo "$prog: $*" >&2; exit 2; }

# ---------------------------------------------------------------- options

orig_args=("$@")
mgraph="" gapbs="" out="out/side-by-side" data="" threads="" trials=""
backend=cuda mode=hybrid graphs="" apps="bfs,sssp,cc,pr,bc" quick=0
kron_gen=0 timeout_s=0 use_cache=0 validate=0 keep_text=0
extra=()
need_arg() { if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a value (see -h)"; fi; }
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--mgraph) need_arg "$@"; mgraph=$2; shift 2 ;;
	--gapbs) need_arg "$@"; gapbs=$2; shift 2 ;;
	--out) need_arg "$@"; out=$2; shift 2 ;;
	--data) need_arg "$@"; data=$2; shift 2 ;;
	--threads) need_arg "$@"; threads=$2; shift 2 ;;
	--trials) need_arg "$@"; trials=$2; shift 2 ;;
	--backend) need_arg "$@"; backend=$2; shift 2 ;;
	--mode) need_arg "$@"; mode=$2; shift 2 ;;
	--graphs) need_arg "$@"; graphs=$2; shift 2 ;;
	--apps) need_arg "$@"; apps=$2; shift 2 ;;
	--timeout) need_arg "$@"; timeout_s=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--gapbs-kron-gen) kron_gen=1; shift ;;
	--cache) use_cache=1; shift ;;
	--validate) validate=1; shift ;;
	--keep-text) keep_text=1; shift ;;
	--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	--) shift; extra=("$@"); break ;;
	*) die "unknown argument '$1' (see -h)" ;;
	esac
done

[ -n "$mgraph" ] || die "--mgraph BIN is required (see -h)"
[ -n "$gapbs" ] || die "--gapbs DIR is required (see -h)"
[ -x "$mgraph" ] || die "$mgraph is not an executable file"
[ -d "$gapbs" ] || die "$gapbs is not a directory"
case $backend in cuda | cpu) ;; *) die "--backend: want cuda or cpu, got '$backend'" ;; esac
case $mode in hybrid | dense | sparse | async | auto) ;; *) die "--mode: want hybrid, dense, sparse, async or auto, got '$mode'" ;; esac
[ -n "$threads" ] || threads=$(nproc)
is_uint() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
{ is_uint "$threads" && [ "$threads" -ge 1 ]; } || die "--threads: want a positive integer, got '$threads'"
[ -z "$trials" ] || { is_uint "$trials" && [ "$trials" -ge 1 ]; } || die "--trials: want a positive integer, got '$trials'"
is_uint "$timeout_s" || die "--timeout: want seconds, got '$timeout_s'"
if [ -z "$graphs" ]; then
	if [ $quick = 1 ]; then graphs="rmat:16:16,grid:256:0.1"; else graphs="rmat:21:16,grid:2048:0.1,kron:24:16"; fi
fi
[ -n "$trials" ] || { [ $quick = 1 ] && trials=3; }
IFS=, read -r -a app_list <<<"$apps"
for a in "${app_list[@]}"; do
	case $a in bfs | sssp | cc | pr | bc) ;; *) die "--apps: unknown app '$a' (want bfs, sssp, cc, pr, bc)" ;; esac
done
IFS=, read -r -a graph_list <<<"$graphs"
[ ${#graph_list[@]} -gt 0 ] || die "--graphs is empty"
[ ${#app_list[@]} -gt 0 ] || die "--apps is empty"
# The absolute binary paths: commands run from the output folder's parent too.
abspath() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }
mgraph=$(abspath "$mgraph")
gapbs=$(abspath "$gapbs")
[ -n "$data" ] || data=$out/data
mkdir -p "$out/raw" "$data" || die "cannot create $out/raw and $data"

app_trials() { # the trial count of app $1
	if [ -n "$trials" ]; then echo "$trials"; return; fi
	case $1 in bfs | cc) echo 16 ;; *) echo 8 ;; esac
}

# ---------------------------------------------------------------- running commands

failures=0
errors=()  # "what: why" lines listed under the table

# run_logged LOG CMD...: run CMD (stdin /dev/null, --timeout) with stdout and
# stderr into LOG between '## ' lines giving the command, exit status and
# wall time; returns CMD's status (124: timed out).
run_logged() {
	local log=$1; shift
	local t0 t1 rc
	t0=$(date +%s.%N)
	{
		printf '## cwd: %s\n## cmd:' "$PWD"
		printf ' %q' "$@"
		printf '\n## start: %s\n' "$(date -u +%FT%TZ)"
	} >"$log"
	# (in a group, so that bash's "Segmentation fault" note goes to the log)
	if [ "$timeout_s" -gt 0 ]; then
		{ timeout -k 10 "$timeout_s" "$@" </dev/null; } >>"$log" 2>&1
	else
		{ "$@" </dev/null; } >>"$log" 2>&1
	fi
	rc=$?
	t1=$(date +%s.%N)
	printf '## exit: %d\n## wall: %s s\n' "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" >>"$log"
	return $rc
}

# why LOG RC: a one-line reason for a failure, from the log's last lines.
why() {
	local log=$1 rc=$2 last
	last=$(grep -v '^## ' "$log" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-200)
	case $rc in
	124 | 137) echo "timed out after ${timeout_s} s" ;;
	0) echo "no timing in the output${last:+ (last line: $last)}" ;;
	129 | 1[3-5][0-9]) echo "exit $rc (signal $((rc - 128)))${last:+: $last}" ;;
	*) echo "exit $rc${last:+: $last}" ;;
	esac
}

note_error() { # note_error WHAT WHY
	failures=$((failures + 1))
	errors+=("$1: $2")
	echo "    ERROR: $1: $2" >&2
}

# ---------------------------------------------------------------- parsing

# GAPBS prints "Trial Time: SECONDS" per trial and "Average Time: SECONDS".
# Prints "AVG_MS BEST_MS TRIALS" (avg or best may be '-'), fails without any.
parse_gapbs() {
	LC_ALL=C awk '
	/^## / { next }
	/^Trial Time:/ { t = $3 * 1000; n++; if (best == "" || t < best) best = t }
	/^Average Time:/ { avg = $3 * 1000 }
	END {
		if (n == 0 && avg == "") exit 1
		printf "%s %s %d\n", (avg == "" ? "-" : sprintf("%.3f", avg)), (best == "" ? "-" : sprintf("%.3f", best)), n
	}' "$1"
}

# mgraph run prints per trial "trial I/N: TIME, ..." and a summary "...: best
# TIME, median TIME, ..." with TIME as "374.3 µs", "1.234 ms" or "2.5 s".
# Engine and copy times are taken where the text has them, as "engine TIME"
# or "copy TIME" (also "engine: TIME", "engine time=TIME", "copies",
# "transfer"), in the trial lines or else the summary. Prints "BEST MEDIAN
# ENGINE COPY TRIALS" in ms ('-' where unknown); fails without a trial time.
parse_mgraph() {
	LC_ALL=C awk '
	# ms of a "NUMBER UNIT" string.
	function ms(s,   v, u) {
		if (!match(s, /[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) return ""
		v = substr(s, RSTART, RLENGTH) + 0
		u = substr(s, RSTART + RLENGTH); sub(/^ +/, "", u)
		if (u ~ /^ns/) return v / 1e6
		if (u ~ /^(µs|us|μs)/) return v / 1e3
		if (u ~ /^ms/) return v
		if (u ~ /^s/) return v * 1000
		return ""
	}
	# ms of the first time that follows key in line (only punctuation, or the
	# word "time", between them); "" when there is none.
	function after(line, key,   i, rest) {
		i = index(line, key)
		if (i == 0) return ""
		rest = substr(line, i + length(key)) " "
		if (!match(rest, /^[^0-9A-Za-z]*(time)?[^0-9A-Za-z]*[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)? *(ns|µs|μs|us|ms|s)[^A-Za-z]/)) return ""
		return ms(substr(rest, RSTART, RLENGTH))
	}
	function first(line, keys,   k, n, i, v) {
		n = split(keys, k, " ")
		for (i = 1; i <= n; i++) if ((v = after(line, k[i])) != "") return v
		return ""
	}
	function fmt(x) { return x == "" ? "-" : sprintf("%.3f", x) }
	/^## / { next }
	{ line = tolower($0) }
	line ~ /^ *trial [0-9]+\/[0-9]+[^0-9]/ {
		t = after(line, ":")
		if (t == "") next
		times[++n] = t
		e = first(line, "engine"); if (e != "" && (eng == "" || e < eng)) eng = e
		c = first(line, "copy copies transfers transfer"); if (c != "" && (cp == "" || c < cp)) cp = c
		next
	}
	line ~ /best/ && line ~ /median/ {
		b = after(line, "best"); m = after(line, "median")
		if (b != "") best = b
		if (m != "") med = m
		se = first(line, "engine"); sc = first(line, "copy copies transfers transfer")
	}
	END {
		if (best == "" && n == 0) exit 1
		if (best == "" || med == "") {
			# insertion sort of the trial times: min and median (upper middle,
			# as mgraph run reports it)
			for (i = 2; i <= n; i++) { x = times[i]; for (j = i - 1; j >= 1 && times[j] > x; j--) times[j + 1] = times[j]; times[j + 1] = x }
			if (best == "") best = times[1]
			if (med == "") med = times[int(n / 2) + 1]
		}
		if (eng == "") eng = se
		if (cp == "") cp = sc
		printf "%s %s %s %s %d\n", fmt(best), fmt(med), fmt(eng), fmt(cp), n
	}' "$1"
}

# ---------------------------------------------------------------- graphs and sources

# label SPEC: a file-name-safe name, rmat:21:16 -> rmat21-16.
label() {
	local s=$1 kind rest
	kind=${s%%:*}
	rest=${s#*:}
	[ "$rest" = "$s" ] && rest=""
	rest=${rest//:/-}
	printf '%s%s\n' "$kind" "$(printf '%s' "$rest" | tr -c 'A-Za-z0-9.x-' '_')"
}

# mgb_check FILE: the file is an .mgb of version 1 (see graph/format/binary.go).
mgb_check() {
	local magic version
	magic=$(od -An -v -t x1 -N 8 "$1" 2>/dev/null | tr -d ' \n')
	version=$(od -An -v -t u4 -j 8 -N 4 "$1" 2>/dev/null | tr -d ' \n')
	[ "$magic" = 894d47420d0a1a0a ] && [ "$version" = 1 ]
}

# mgb_vertices FILE: the vertex count in the header.
mgb_vertices() { od -An -v -t u8 -j 16 -N 8 "$1" | tr -d ' \n'; }

# first_with_arcs FILE V: the first vertex >= V with out-degree > 0, read from
# the .mgb offsets (n+1 uint64 from byte 64); empty when there is none.
first_with_arcs() {
	local f=$1 v=$2 n
	n=$(mgb_vertices "$f")
	[ "$v" -lt "$n" ] || return 0
	od -An -v -t u8 -w8 -j $((64 + 8 * v)) -N $((8 * (n + 1 - v))) "$f" 2>/dev/null |
		awk -v v="$v" 'NR > 1 && $1 + 0 > prev + 0 { print v + NR - 2; exit } { prev = $1 }'
}

# default_source SPEC: the grid's centre, else 0.
default_source() {
	local spec=$1 dims rows cols
	case $spec in
	grid:*)
		dims=${spec#grid:}
		dims=${dims%%:*}
		case $dims in
		*x*) rows=${dims%x*}; cols=${dims#*x} ;;
		*) rows=$dims; cols=$dims ;;
		esac
		if is_uint "$rows" && is_uint "$cols"; then echo $(((rows / 2) * cols + cols / 2)); else echo 0; fi
		;;
	*) echo 0 ;;
	esac
}

# ---------------------------------------------------------------- environment

{
	echo "date: $(date -u +%FT%TZ)"
	echo "host: $(hostname 2>/dev/null)"
	echo "kernel: $(uname -srm)"
	echo "nproc: $(nproc)"
	echo "cpu: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)"
	echo "memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)"
	if command -v nvidia-smi >/dev/null 2>&1; then
		echo "nvidia-smi: $(nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1 | paste -sd ';' -)"
	else
		echo "nvidia-smi: (not found)"
	fi
	echo "threads: $threads (GAPBS OMP_NUM_THREADS, mgraph --threads)"
	echo "mgraph: $mgraph"
	echo "mgraph backend: $backend, mode: $mode${extra[*]:+, extra flags: ${extra[*]}}"
	echo "gapbs: $gapbs"
	echo "graphs: $graphs"
	echo "apps: $apps"
	echo "trials: ${trials:-per app (bfs 16, sssp 8, cc 16, pr 8, bc 8)}"
	echo "gapbs kron generator: $([ $kron_gen = 1 ] && echo "yes (-g)" || echo "no (same file)")"
	printf 'command:'; printf ' %q' "$0" "${orig_args[@]}"; echo
	echo "--- mgraph version"
	"$mgraph" version 2>&1
} >"$out/env.txt" 2>&1

# ---------------------------------------------------------------- plan

n_graphs=${#graph_list[@]}
n_apps=${#app_list[@]}
total=$((n_graphs * n_apps * 2))
step=0
start_all=$(date +%s)
declare -A cell # "I|app|field" -> value
# per graph I: spec, name, source, note, prepared, GAPBS generator args,
# GAPBS source (empty: its own), GAPBS input missing
declare -A g_spec g_name g_src g_note g_ok g_gapbs_gen g_gapbs_src g_gapbs_bad

prepare() { # prepare I SPEC: files and source of graph I
	local i=$1 spec=$2 name mgb wel gwel sg wsg src explicit="" s
	case $spec in *@*) explicit=${spec#*@}; spec=${spec%@*} ;; esac
	name=$(label "$spec")
	mgb=$data/$name.mgb
	g_ok[$i]=1
	g_note[$i]=""
	local pre="[prep $name]"
	if [ -s "$mgb" ]; then
		echo "$pre reusing $mgb" >&2
	else
		echo "$pre mgraph gen $spec ..." >&2
		if ! run_logged "$out/raw/$name-gen.log" "$mgraph" gen "$spec" --symmetrize --dedupe --drop-self-loops --weights 7 -o "$mgb"; then
			note_error "$name: mgraph gen" "$(why "$out/raw/$name-gen.log" $?)"
			g_ok[$i]=0
			return
		fi
	fi

	# The source: explicit, or the default if it has arcs, else the next that has.
	if [ -n "$explicit" ]; then
		is_uint "$explicit" || { note_error "$name" "source '$explicit' is not a vertex id"; g_ok[$i]=0; return; }
		src=$explicit
		if mgb_check "$mgb" && [ "$(first_with_arcs "$mgb" "$src")" != "$src" ]; then
			echo "$pre warning: source $src has no arcs" >&2
			g_note[$i]="source $src (given) has no arcs"
		fi
	elif [ -s "$data/$name.source" ]; then
		src=$(cat "$data/$name.source")
	else
		src=$(default_source "$spec")
		if mgb_check "$mgb"; then
			s=$(first_with_arcs "$mgb" "$src")
			if [ -z "$s" ]; then s=$(first_with_arcs "$mgb" 0); fi
			if [ -n "$s" ] && [ "$s" != "$src" ]; then
				echo "$pre vertex $src has no arcs: source $s" >&2
				g_note[$i]="vertex $src has no arcs, source $s"
				src=$s
			fi
		else
			echo "$pre warning: $mgb is not an .mgb of version 1; source $src not checked" >&2
		fi
		echo "$src" >"$data/$name.source"
	fi
	g_src[$i]=$src
	g_gapbs_src[$i]=$src
	echo "$pre source $src" >&2

	if [ $kron_gen = 1 ] && [[ $spec == kron:* ]]; then
		local sc ef
		sc=$(echo "$spec" | cut -d: -f2)
		ef=$(echo "$spec" | cut -d: -f3)
		g_gapbs_gen[$i]="-g $sc -k ${ef:-16}"
		g_gapbs_src[$i]=""
		g_note[$i]="${g_note[$i]:+${g_note[$i]}; }GAPBS: its own graph (-g $sc -k ${ef:-16}) and sources"
		return
	fi
	g_gapbs_gen[$i]=""
	sg=$data/$name.sg
	wsg=$data/$name.wsg
	if [ -s "$sg" ] && [ -s "$wsg" ]; then
		echo "$pre reusing $sg, $wsg" >&2
		return
	fi
	wel=$data/$name.mgraph.wel
	gwel=$data/$name.gapbs.wel
	if [ ! -s "$gwel" ]; then
		echo "$pre mgraph convert -> .wel, strip comments ..." >&2
		if ! run_logged "$out/raw/$name-convert.log" "$mgraph" convert "$mgb" "$wel"; then
			note_error "$name: mgraph convert" "$(why "$out/raw/$name-convert.log" $?)"
			rm -f "$wel"
			g_gapbs_bad[$i]=1
			return
		fi
		if ! grep -v '^[#%]' "$wel" >"$gwel.tmp"; then
			note_error "$name: strip comments" "grep failed on $wel"
			rm -f "$wel" "$gwel.tmp"
			g_gapbs_bad[$i]=1
			return
		fi
		mv "$gwel.tmp" "$gwel"
		rm -f "$wel"
	fi
	local kind flag dst rc
	for kind in sg wsg; do
		if [ $kind = sg ]; then flag=-b; dst=$sg; else flag=-wb; dst=$wsg; fi
		[ -s "$dst" ] && continue
		echo "$pre gapbs converter -> .$kind ..." >&2
		rc=0
		run_logged "$out/raw/$name-converter-$kind.log" "$gapbs/converter" -f "$gwel" -s "$flag" "$dst.tmp" || rc=$?
		if [ $rc = 0 ] && [ -s "$dst.tmp" ]; then
			mv "$dst.tmp" "$dst"
		else
			note_error "$name: gapbs converter $flag" "$(why "$out/raw/$name-converter-$kind.log" "$rc")"
			rm -f "$dst.tmp"
			g_gapbs_bad[$i]=1
		fi
	done
	[ $keep_text = 1 ] || rm -f "$gwel"
}

for i in "${!graph_list[@]}"; do
	spec=${graph_list[$i]}
	g_spec[$i]=${spec%@*}
	g_name[$i]=$(label "${spec%@*}")
	prepare "$i" "$spec"
done

# ---------------------------------------------------------------- measuring

progress() { # progress TOOL APP I: the "[k/N] ..." line
	step=$((step + 1))
	local s=""
	case $3 in bfs | sssp | bc) s=${g_src[$2]:-} ;; esac
	if [ -n "$s" ] && [ "$1" = gapbs ] && [ -n "${g_gapbs_gen[$2]:-}" ]; then s="GAPBS's own"; fi
	printf '[%d/%d] %s %s %s%s ...' "$step" "$total" "$1" "$3" "${g_name[$2]}" "${s:+ (source $s)}" >&2
}

gapbs_one() { # gapbs_one I APP
	local i=$1 app=$2 name=${g_name[$1]} t log bin input args=() src parsed
	t=$(app_trials "$app")
	log=$out/raw/$name-gapbs-$app.log
	progress gapbs "$i" "$app"
	bin=$gapbs/$app
	if [ "${g_ok[$i]}" != 1 ] || [ -n "${g_gapbs_bad[$i]:-}" ]; then
		echo " skipped (no input)" >&2
		cell[$i|$app|gapbs]=ERROR
		note_error "$name gapbs $app" "no GAPBS input (see the preparation errors)"
		return
	fi
	if [ ! -x "$bin" ]; then
		echo " no binary" >&2
		cell[$i|$app|gapbs]=ERROR
		note_error "$name gapbs $app" "$bin is not executable"
		return
	fi
	if [ -n "${g_gapbs_gen[$i]}" ]; then
		read -r -a args <<<"${g_gapbs_gen[$i]}"
	else
		input=$data/$name.sg
		[ "$app" = sssp ] && input=$data/$name.wsg
		args=(-f "$input")
	fi
	src=${g_gapbs_src[$i]}
	case $app in
	bfs | sssp | bc) if [ -n "$src" ]; then args+=(-r "$src"); fi ;;
	esac
	args+=(-n "$t")
	case $app in
	sssp) args+=(-d 32) ;;
	pr) args+=(-i 20 -t 1e-4) ;;
	bc) args+=(-i 1) ;;
	esac
	[ $validate = 1 ] && args+=(-v)
	local t0=$SECONDS rc=0
	run_logged "$log" env OMP_NUM_THREADS="$threads" "$bin" "${args[@]}" || rc=$?
	if [ $rc = 0 ] && parsed=$(parse_gapbs "$log"); then
		read -r avg best n <<<"$parsed"
		cell[$i|$app|gapbs_avg]=$avg
		cell[$i|$app|gapbs_best]=$best
		cell[$i|$app|gapbs]=ok
		echo " avg $avg ms, best $best ms ($n trials, $((SECONDS - t0)) s)" >&2
		if [ "$n" != "$t" ]; then note_error "$name gapbs $app" "$n trial times in the log, expected $t"; fi
		if [ $validate = 1 ] && grep -q 'Verification:.*FAIL' "$log"; then note_error "$name gapbs $app" "verification FAILED"; fi
	else
		echo " failed" >&2
		cell[$i|$app|gapbs]=ERROR
		note_error "$name gapbs $app" "$(why "$log" $rc)"
	fi
}

mgraph_one() { # mgraph_one I APP
	local i=$1 app=$2 name=${g_name[$1]} t log args parsed
	t=$(app_trials "$app")
	log=$out/raw/$name-mgraph-$app.log
	progress mgraph "$i" "$app"
	if [ "${g_ok[$i]}" != 1 ]; then
		echo " skipped (no graph)" >&2
		cell[$i|$app|mgraph]=ERROR
		note_error "$name mgraph $app" "no graph file (see the preparation errors)"
		return
	fi
	args=(run "$app" "$data/$name.mgb" --backend "$backend" --mode "$mode" --trials "$t" --threads "$threads")
	case $app in
	bfs | sssp | bc) args+=(--source "${g_src[$i]}") ;;
	pr) args+=(--tolerance 1e-4 --max-iterations 20) ;;
	esac
	if [ $use_cache = 1 ]; then args+=(--cache-dir "$data/layout-cache"); else args+=(--no-cache); fi
	[ $validate = 1 ] && args+=(--validate)
	args+=("${extra[@]}")
	local t0=$SECONDS rc=0
	run_logged "$log" "$mgraph" "${args[@]}" || rc=$?
	if [ $rc = 0 ] && parsed=$(parse_mgraph "$log"); then
		read -r best med eng cp n <<<"$parsed"
		cell[$i|$app|m_best]=$best
		cell[$i|$app|m_med]=$med
		cell[$i|$app|m_eng]=$eng
		cell[$i|$app|m_copy]=$cp
		cell[$i|$app|mgraph]=ok
		local more=""
		if [ "$eng" != - ]; then more+=", engine $eng ms"; fi
		if [ "$cp" != - ]; then more+=", copy $cp ms"; fi
		echo " best $best ms, median $med ms$more ($n trials, $((SECONDS - t0)) s)" >&2
		if [ "$n" != 0 ] && [ "$n" != "$t" ]; then note_error "$name mgraph $app" "$n trial lines in the log, expected $t"; fi
	else
		echo " failed" >&2
		cell[$i|$app|mgraph]=ERROR
		note_error "$name mgraph $app" "$(why "$log" $rc)"
	fi
}

for i in "${!graph_list[@]}"; do
	for app in "${app_list[@]}"; do
		gapbs_one "$i" "$app"
		mgraph_one "$i" "$app"
	done
done

# ---------------------------------------------------------------- table

dash() { if [ -z "$1" ] || [ "$1" = - ]; then echo ""; else echo "$1"; fi; }
speedup() { # speedup GAPBS_MS MGRAPH_MS
	if [ -z "$1" ] || [ -z "$2" ]; then return; fi
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b }'
}

elapsed=$(($(date +%s) - start_all))
tsv=$out/results.tsv
table=$out/table.md
printf 'graph\tapp\tsource\tgapbs_avg_ms\tgapbs_best_ms\tmgraph_best_ms\tmgraph_median_ms\tmgraph_engine_ms\tmgraph_copy_ms\tspeedup\n' >"$tsv"
{
	echo "# GAPBS vs mgraph, side by side"
	echo
	echo "$(date -u +%F), $(nproc) cores, $threads threads$(command -v nvidia-smi >/dev/null 2>&1 && printf ', GPU: %s' "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"); mgraph --backend $backend --mode $mode${extra[*]:+ ${extra[*]}}; trials: ${trials:-bfs 16, sssp 8, cc 16, pr 8, bc 8}."
	echo
	echo "| graph | app | source | GAPBS ${threads}T avg ms | GAPBS ${threads}T best ms | mgraph best ms | mgraph median ms | mgraph engine ms | mgraph copy ms | speedup |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} >"$table"
for i in "${!graph_list[@]}"; do
	for app in "${app_list[@]}"; do
		src=""
		case $app in bfs | sssp | bc) src=${g_src[$i]:-} ;; esac
		if [ "${cell[$i|$app|gapbs]:-}" = ok ]; then
			ga=$(dash "${cell[$i|$app|gapbs_avg]}") gb=$(dash "${cell[$i|$app|gapbs_best]}")
		else ga=ERROR gb=ERROR; fi
		if [ "${cell[$i|$app|mgraph]:-}" = ok ]; then
			mb=$(dash "${cell[$i|$app|m_best]}") mm=$(dash "${cell[$i|$app|m_med]}")
			me=$(dash "${cell[$i|$app|m_eng]}") mc=$(dash "${cell[$i|$app|m_copy]}")
		else mb=ERROR mm=ERROR me="" mc=""; fi
		sp=""
		[ "$gb" != ERROR ] && [ "$mb" != ERROR ] && sp=$(speedup "$gb" "$mb")
		gsrc=$src
		if [ -n "$src" ] && [ -n "${g_gapbs_gen[$i]}" ]; then gsrc="$src (GAPBS: random)"; fi
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "${g_spec[$i]}" "$app" "$gsrc" "$ga" "$gb" "$mb" "$mm" "$me" "$mc" "${sp:+${sp}×}" >>"$table"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${g_spec[$i]}" "$app" "$src" "$ga" "$gb" "$mb" "$mm" "$me" "$mc" "$sp" >>"$tsv"
	done
done
{
	echo
	echo "speedup = GAPBS best trial / mgraph best trial (> 1: mgraph faster). GAPBS: \"Trial Time\" (kernel only, graph built, from .sg/.wsg written once by its converter); mgraph: the trial time of 'mgraph run' (no reading, preprocessing or upload; the result in host memory); engine and copy: its device time and result copy, when its output reports them (min over trials). Graphs: 'mgraph gen SPEC --symmetrize --dedupe --drop-self-loops --weights 7' (.mgb for mgraph, .wel without comment lines for GAPBS's converter, -s). GAPBS: sssp -d 32, pr -i 20 -t 1e-4, bc -i 1; mgraph pr --tolerance 1e-4 --max-iterations 20, bc one source."
	for i in "${!graph_list[@]}"; do
		if [ -n "${g_note[$i]}" ]; then echo; echo "- ${g_spec[$i]}: ${g_note[$i]}"; fi
	done
	if [ ${#errors[@]} -gt 0 ]; then
		echo
		echo "Errors (logs in raw/):"
		echo
		for e in "${errors[@]}"; do echo "- $e"; done
	fi
	echo
	echo "Run took ${elapsed} s; environment in env.txt, every command's log in raw/."
} >>"$table"

echo >&2
cat "$table"
echo >&2
echo "$prog: wrote $table, $tsv, $out/env.txt, $out/raw/ (${elapsed} s, $failures failure(s))" >&2
[ $failures = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One command for the comparison of shmpi with MPICH and Open MPI: builds the
# MPI benchmark programs of bench/mpi with each implementation, runs them side
# by side (interleaved, repeated, medians taken), runs the physical floor, and
# prints a markdown report to stdout and to <build>/bench-report.md.
# Tests: latency, bw, msgrate, part, rma, io, spawn (MPI_Comm_spawn +
# MPI_Comm_disconnect), coll<N> and comm<N> (see --tests).
# Needs bash, coreutils (timeout, sort) and awk; python3 is not needed.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/compare.sh [options]
  --build DIR      shmpi build tree (default: $SHMPI_BUILD_DIR, else <repo>/build);
                   the shmpi column appears when DIR/launcher/shmpirun and
                   DIR/src/mpi/libshmpi.so exist; work files go to DIR/bench-compare
  --shmpicc PATH   build shmpi's side with this compiler wrapper instead (installed
                   shmpi); shmpirun is taken from the same directory
  --only LIST      comma-separated subset of: shmpi,mpich,openmpi
  --tests LIST     run only these tests: latency,bw,msgrate,part,rma,io,spawn,
                   coll2,coll4,...,comm2,comm4,... (coll<N> for each --coll-np
                   count, comm<N> for each --comm-np count)
  --quick          one repetition, short batches (about a minute in all)
  --reps N         repetitions of every run (default 3; medians are reported)
  --cores A,B      the two cores of the floor program (default 0,1)
  --coll-np LIST   rank counts of the collective runs (default 2,4,8; "none"
                   skips them): barrier, bcast, allreduce, alltoall
  --coll-ops LIST  the collectives of those runs (default the four above; also
                   gather, scatter, allgather, reduce_scatter_block, scan,
                   neighbor_alltoall)
  --coll-comm C    world (default) or inter: run the collectives on an
                   intercommunicator between the lower and the upper half of
                   the ranks (bcast, gather, scatter from the lower half's
                   rank 0; scan and neighbor_alltoall are n/a there)
  --coll-sizes LIST
                   the sizes of those runs in bytes (default 8,1024,65536,
                   1048576), e.g. 8,64,512,4096 to look between them
  --comm-np LIST   rank counts of the communicator-creation runs (default 2,4,8;
                   "none" skips them)
  --timeout S      limit of one program run in seconds (default 60, quick 30;
                   communicator-creation and spawn runs: at most 30, quick 20)
  --out FILE       report file (default: <build>/bench-report.md)
  --no-floor       skip the floor program
  --wait-quiet S   before every program run, wait for the CPUs to be idle (other
                   work under 10% of the machine over one second), at most S
                   seconds in all
EOF
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SHMPI_BUILD_DIR:-$repo/build}
shmpicc=""
only="shmpi,mpich,openmpi"
only_tests=""
quick=0
reps=""
cores="0,1"
coll_np="2,4,8"
coll_ops=""
coll_sizes=""
coll_comm=world
comm_np="2,4,8"
run_timeout=""
out=""
floor=1
wait_quiet=0

while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --shmpicc) shmpicc=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --tests) only_tests=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --reps) reps=$2; shift 2 ;;
    --cores) cores=$2; shift 2 ;;
    --coll-np) coll_np=$2; shift 2 ;;
    --coll-ops) coll_ops=$2; shift 2 ;;
    --coll-sizes) coll_sizes=$2; shift 2 ;;
    --coll-comm) coll_comm=$2; shift 2 ;;
    --comm-np) comm_np=$2; shift 2 ;;
    --timeout) run_timeout=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-floor) floor=0; shift ;;
    --wait-quiet) wait_quiet=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "compare.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
[[ -n $reps ]] || reps=$((quick ? 1 : 3))
[[ -n $run_timeout ]] || run_timeout=$((quick ? 30 : 60))
# The communicator-creation runs bound themselves by time (about 4 s each,
# even for an implementation that manages 10 per second); a run that still
# needs more than this is stuck, and is cut short to keep the whole comparison
# within minutes.
comm_timeout=$((quick ? 20 : 30))
((comm_timeout < run_timeout)) || comm_timeout=$run_timeout
# spawn bounds itself too (--time-limit of 15 s, 8 s with --quick, shared by
# its three process counts, and a watchdog that ends the program when one
# spawn has not returned after 10 s: Debian's Open MPI 4.1 with its external
# PMIx 4 hangs now and then, a spawned process stuck in PMIx_Init, openpmix
# issue 2735); this limit is the backstop.
spawn_timeout=$comm_timeout
[[ $comm_np == none ]] && comm_np=""
[[ $coll_np == none ]] && coll_np=""
if [[ $coll_comm != world && $coll_comm != inter ]]; then
  echo "compare.sh: --coll-comm wants world or inter" >&2
  exit 2
fi
for list in "$comm_np" "$coll_np"; do
  if [[ -n $list && ! $list =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "compare.sh: --comm-np and --coll-np want a list such as 2,4,8 (or none)" >&2
    exit 2
  fi
done
mkdir -p "$build"
build=$(cd "$build" && pwd)
[[ -n $out ]] || out=$build/bench-report.md
work=$build/bench-compare
rm -rf "$work"
mkdir -p "$work/bin" "$work/raw"
: >"$work/status.txt"

note() { echo "compare.sh: $*" >&2; }
wanted() { [[ ",$only," == *",$1,"* ]]; }

declare -A label=([shmpi]="shmpi" [mpich]="MPICH" [openmpi]="Open MPI")
progs=(latency bw msgrate coll comm part rma io spawn)
prog_args=()
((quick)) && prog_args=(--quick)
cflags=(-O2 -std=c99 -Wall -Wno-stringop-overflow)

# --- implementations: compiler command and launcher prefix ------------------
impls=()
declare -A cc_cmd run_cmd why_missing
if wanted shmpi; then
  if [[ -n $shmpicc ]]; then
    runner=$(dirname "$(command -v "$shmpicc" || echo "$shmpicc")")/shmpirun
    [[ -x $runner ]] || runner=$build/launcher/shmpirun
    if command -v "$shmpicc" >/dev/null && [[ -x $runner ]]; then
      impls+=(shmpi)
      cc_cmd[shmpi]="$shmpicc"
      run_cmd[shmpi]="$runner --bind-to core -n"
    else
      why_missing[shmpi]="$shmpicc or shmpirun not found"
    fi
  elif [[ -x $build/launcher/shmpirun && -e $build/src/mpi/libshmpi.so && -e $repo/include/mpi.h ]]; then
    impls+=(shmpi)
    cc_cmd[shmpi]="${CC:-cc} -I$repo/include -L$build/src/mpi -Wl,-rpath,$build/src/mpi"
    run_cmd[shmpi]="$build/launcher/shmpirun --bind-to core -n"
  else
    why_missing[shmpi]="no $build/launcher/shmpirun + $build/src/mpi/libshmpi.so yet"
  fi
fi
if wanted mpich; then
  if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
    impls+=(mpich)
    cc_cmd[mpich]="mpicc.mpich"
    run_cmd[mpich]="mpirun.mpich -bind-to core -n"
  else
    why_missing[mpich]="mpicc.mpich/mpirun.mpich not installed"
  fi
fi
if wanted openmpi; then
  if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
    impls+=(openmpi)
    cc_cmd[openmpi]="mpicc.openmpi"
    # overload-allowed: more ranks than cores is refused by --bind-to core
    # alone; --oversubscribe also makes Open MPI yield when idle. ob1 + vader
    # is Debian's default selection, named so that it cannot change silently
    # (the btl list is a launcher extra, see launch_extra).
    run_cmd[openmpi]="mpirun.openmpi --oversubscribe --bind-to core:overload-allowed --mca pml ob1 -n"
    if [[ $(id -u) == 0 ]]; then
      run_cmd[openmpi]="mpirun.openmpi --allow-run-as-root ${run_cmd[openmpi]#mpirun.openmpi }"
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
  else
    why_missing[openmpi]="mpicc.openmpi/mpirun.openmpi not installed"
  fi
fi

# Launcher options of one implementation (IMPL) or of one of its tests
# (IMPL.TEST, which replaces IMPL's), inserted before the -n that ends run_cmd.
# spawn: shmpi never reuses a process slot, so the job's universe (default
# np + 8) must hold every process spawned over the run; Open MPI's vader
# cannot reach a process of another job (the spawned one), so tcp joins it
# there (between the jobs only; within a job vader still wins).
declare -A launch_extra=(
  [openmpi]="--mca btl self,vader"
  [openmpi.spawn]="--mca btl self,vader,tcp"
  [shmpi.spawn]="--universe-size 96"
)

# --- build -------------------------------------------------------------------
declare -A have_bin
for impl in ${impls[@]+"${impls[@]}"}; do
  libs=()
  [[ $impl == shmpi && -z $shmpicc ]] && libs=(-lshmpi)
  for p in "${progs[@]}"; do
    # shellcheck disable=SC2086  # cc_cmd holds a command and its flags
    if ${cc_cmd[$impl]} "${cflags[@]}" -o "$work/bin/$p.$impl" "$repo/bench/mpi/$p.c" \
      ${libs[@]+"${libs[@]}"} >"$work/raw/build.$p.$impl.log" 2>&1; then
      have_bin[$p.$impl]=1
    else
      note "${label[$impl]}: $p does not build (see $work/raw/build.$p.$impl.log)"
    fi
  done
done
floor_bin=""
if ((floor)); then
  if ${CXX:-c++} -std=c++20 -O2 -o "$work/bin/floor" "$repo/bench/floor/cacheline_pingpong.cpp" \
    >"$work/raw/build.floor.log" 2>&1; then
    floor_bin=$work/bin/floor
  else
    note "the floor program does not build (see $work/raw/build.floor.log)"
  fi
fi

# --- runs --------------------------------------------------------------------
# test name | program | ranks | extra arguments | time limit of one run
# An empty limit means --timeout. A test with its own limit is given up for an
# implementation once it has timed out there: its later repetitions would
# only burn the same limit again.
tests=(
  "latency|latency|2||"
  "bw|bw|2||"
  "msgrate|msgrate|2||"
  "part|part|2||"
  "rma|rma|2||"
  "io|io|2||"
  "spawn|spawn|2||$spawn_timeout"
)
# coll bounds itself: each operation gets its share of the program's time
# limit (15 s, 8 s with --quick) and at least its first size, so even MPICH's
# busy polling with 8 ranks on 2 cores ends within about 20 s per run.
IFS=',' read -r -a coll_nps <<<"$coll_np"
for n in ${coll_nps[@]+"${coll_nps[@]}"}; do
  tests+=("coll$n|coll|$n|${coll_ops:+--ops $coll_ops}${coll_sizes:+ --sizes $coll_sizes} --comm $coll_comm|")
done
IFS=',' read -r -a comm_nps <<<"$comm_np"
for n in ${comm_nps[@]+"${comm_nps[@]}"}; do
  tests+=("comm$n|comm|$n||$comm_timeout")
done
if [[ -n $only_tests ]]; then
  kept=()
  for t in "${tests[@]}"; do
    [[ ",$only_tests," == *",${t%%|*},"* ]] && kept+=("$t")
  done
  tests=(${kept[@]+"${kept[@]}"})
fi

# busy_percent: share of all CPUs busy (not idle or iowait) over one second.
busy_percent() {
  local a b
  a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat)
  sleep 1
  b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat)
  awk -v a="$a" -v b="$b" 'BEGIN {
    split(a, x, " "); split(b, y, " "); busy = y[1] - x[1]; idle = y[2] - x[2]
    printf "%.0f", (busy + idle > 0) ? 100 * busy / (busy + idle) : 0 }'
}
# wait_for_quiet: with --wait-quiet, waits (within what is left of that
# budget) until other work uses under 10% of the CPUs; sets busy_now.
quiet_left=$wait_quiet
busy_runs=0
wait_for_quiet() {
  busy_now=$(busy_percent)
  while ((busy_now >= 10 && quiet_left > 0)); do
    note "machine busy (${busy_now}%), waiting for it to be quiet"
    sleep 4
    quiet_left=$((quiet_left - 5))
    busy_now=$(busy_percent)
  done
  ((busy_now < 10)) || busy_runs=$((busy_runs + 1))
}

# Runs one program under one implementation with a time limit; the output so
# far is kept even when the limit strikes (every line is flushed). Appends
# "impl|test|rep|status" to status.txt (status: ok, exit N, timeout, skipped)
# and adds the run's wall time to test_ms.
declare -A test_ms gave_up
run_one() {
  local impl=$1 name=$2 prog=$3 np=$4 extra=$5 rep=$6 own_limit=${7:-}
  local limit=${own_limit:-$run_timeout}
  local log=$work/raw/$impl.$name.r$rep.txt
  [[ -n ${have_bin[$prog.$impl]:-} ]] || return 0
  if [[ -n ${gave_up[$impl.$name]:-} ]]; then
    note "rep $rep: ${label[$impl]} $name skipped (timed out before)"
    echo "$impl|$name|$rep|skipped" >>"$work/status.txt"
    return 0
  fi
  ((wait_quiet > 0)) && wait_for_quiet
  note "rep $rep: ${label[$impl]} $name (np=$np)"
  local rc=0 status=ok t0 launch=${run_cmd[$impl]}
  if [[ -n ${launch_extra[$impl.$name]+set} ]]; then
    launch="${launch% -n} ${launch_extra[$impl.$name]} -n"
  elif [[ -n ${launch_extra[$impl]:-} ]]; then
    launch="${launch% -n} ${launch_extra[$impl]} -n"
  fi
  t0=$(date +%s%3N)
  # shellcheck disable=SC2086
  timeout -k 5 "$limit" $launch "$np" "$work/bin/$prog.$impl" \
    ${prog_args[@]+"${prog_args[@]}"} $extra >"$log" 2>"$log.err" || rc=$?
  test_ms[$name]=$((${test_ms[$name]:-0} + $(date +%s%3N) - t0))
  if ((rc == 124 || rc == 137)); then
    note "${label[$impl]} $name: timed out after ${limit}s (partial results kept)"
    echo "# timeout" >>"$log"
    status=timeout
    [[ -z $own_limit ]] || gave_up[$impl.$name]=1
  elif ((rc != 0)); then
    note "${label[$impl]} $name: exit code $rc (see $log.err)"
    status="exit $rc"
  fi
  echo "$impl|$name|$rep|$status" >>"$work/status.txt"
}

if ((wait_quiet > 0)); then
  wait_for_quiet
  busy_runs=0
fi
busy_before=${busy_now:-$(busy_percent)}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# Steal time: in a VM, the share of time the hypervisor ran someone else.
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $9 }' /proc/stat; }
ticks_before=$(cpu_ticks)
started=$(date +%s)
n_impls=${#impls[@]}
for ((rep = 1; rep <= reps; rep++)); do
  for t in "${tests[@]}"; do
    IFS='|' read -r name prog np extra limit <<<"$t"
    # Rotate the order each repetition so that no implementation always
    # runs first (or right after the heaviest one).
    for ((k = 0; k < n_impls; k++)); do
      impl=${impls[$(((k + rep - 1) % n_impls))]}
      run_one "$impl" "$name" "$prog" "$np" "$extra" "$rep" "$limit"
    done
  done
  if [[ -n $floor_bin ]]; then
    ((wait_quiet > 0)) && wait_for_quiet
    note "rep $rep: floor"
    fargs=(--cores "$cores")
    ((quick)) && fargs+=(--quick)
    timeout -k 5 "$run_timeout" "$floor_bin" "${fargs[@]}" >"$work/raw/floor.r$rep.txt" 2>&1 || true
  fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
steal=$(awk -v a="$ticks_before" -v b="$(cpu_ticks)" 'BEGIN {
  split(a, x, " "); split(b, y, " "); t = y[1] - x[1]
  printf "%.1f", (t > 0) ? 100 * (y[2] - x[2]) / t : 0 }')
elapsed=$(($(date +%s) - started))

# --- collect: one "impl|test|row|value" line per measurement and repetition -
shopt -s nullglob  # no run at all leaves an empty table, not an error
{
  for f in "$work"/raw/*.r*.txt; do
    base=$(basename "$f")
    impl=${base%%.*}
    rest=${base#*.}
    name=${rest%%.*}
    [[ $impl == floor ]] && name=floor
    awk -v impl="$impl" -v test="$name" '
      function val(k,   i, kv) {
        for (i = 2; i <= NF; i++) {
          split($i, kv, "=")
          if (kv[1] == k) return kv[2]
        }
        return ""
      }
      /^#/ { next }
      $1 == "latency" { print impl "|" test "|" val("bytes") "|" val("usec") }
      $1 == "bw"      { print impl "|" test "|" val("bytes") "|" val("mbps") }
      $1 == "msgrate" { print impl "|" test "|" val("bytes") "|" val("mmsgs") }
      $1 == "barrier" { print impl "|" test "|barrier|" val("usec") }
      $1 == "bcast" || $1 == "allreduce" || $1 == "alltoall" || $1 == "gather" ||
      $1 == "scatter" || $1 == "allgather" || $1 == "reduce_scatter_block" ||
      $1 == "scan" || $1 == "neighbor_alltoall" {
        print impl "|" test "|" $1 " " val("bytes") "|" val("usec")
      }
      $1 == "part" { print impl "|" test "|" val("parts") " x " val("bytes") "|" val("usec") }
      $1 == "rma" { print impl "|" test "|" val("op") " " val("bytes") "|" val("usec") }
      $1 == "io" { print impl "|" test "|" val("op") " " val("bytes") "|" val("usec") }
      $1 == "spawn" { print impl "|" test "|spawn " val("procs") " procs|" val("usec") }
      $1 == "part_plain" { print impl "|" test "|plain send " val("bytes") "|" val("usec") }
      $1 == "part_alloc" {
        print impl "|" test "|" val("parts") " x " val("bytes") " alloc_mem|" val("usec")
      }
      $1 == "part_early" {
        print impl "|" test "|early bird " val("parts") " x " val("bytes") "|" val("usec")
      }
      $1 == "comm_dup" || $1 == "comm_split" || $1 == "comm_split_use" {
        print impl "|comm|" substr($1, 6) " np=" val("np") "|" val("per_s")
      }
      $1 == "floor" && $2 == "memcpy" {
        print impl "|floor|memcpy " val("bytes") "|" val("gbps")
      }
      $1 == "floor" && $2 == "alltoall_copies" {
        print impl "|floor|alltoall_copies " val("bytes") "|" val("us")
      }
      $1 == "floor" && $2 == "barrier_on_two" {
        print impl "|floor|barrier_on_two " val("procs") "|" val("ns")
      }
      $1 == "floor" && $2 == "alltoall_on_two" {
        print impl "|floor|alltoall_on_two " val("procs") " " val("bytes") "|" val("us")
      }
      $1 == "floor" && $2 != "memcpy" && $2 != "alltoall_copies" &&
      $2 != "barrier_on_two" && $2 != "alltoall_on_two" {
        print impl "|floor|" $2 "|" val("ns")
      }
    ' "$f"
  done
} >"$work/all.txt"
# "n/a": the implementation lacks the operation (coll and spawn print
# usec=n/a); kept apart so that medians are taken over numbers only.
grep '|n/a$' "$work/all.txt" >"$work/na.txt" || true

# Median over repetitions of every impl|test|row.
grep -v '|n/a$' "$work/all.txt" | sort -t'|' -k1,1 -k2,2 -k3,3 -k4,4g | awk -F'|' '
  function flush() {
    if (n == 0) return
    m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    print key "|" m "|" n
  }
  { k = $1 "|" $2 "|" $3
    if (k != key) { flush(); key = k; n = 0 }
    v[++n] = $4 }
  END { flush() }' >"$work/medians.txt"

# value IMPL TEST ROW -> median or empty
value() { awk -F'|' -v k="$1|$2|$3" '($1 "|" $2 "|" $3) == k { print $4; exit }' "$work/medians.txt"; }
# floor_row LABEL KEY FORMAT UNIT: a row of the floor table, if the floor
# program printed KEY.
floor_row() {
  local v
  v=$(value floor floor "$2")
  if [[ -n $v ]]; then
    echo "| $1 | $(printf "$3" "$v") $4 |"
  fi
}

# --- report ------------------------------------------------------------------
others=()
for impl in ${impls[@]+"${impls[@]}"}; do
  [[ $impl == shmpi ]] || others+=("$impl")
done
has_shmpi=0
[[ " ${impls[*]-} " == *" shmpi "* ]] && has_shmpi=1
shown=(${impls[@]+"${impls[@]}"})  # columns: the implementations that ran
ratio_col=$((has_shmpi && ${#others[@]} > 0))

# run_test_of TEST ROW: the test (run) whose output gives ROW of TEST's table.
run_test_of() {
  if [[ $1 == comm ]]; then
    echo "comm${2##*np=}"
  else
    echo "$1"
  fi
}
# missing_cell IMPL RUN-TEST [ROW]: the text of a cell without a value: "n/a"
# when IMPL reported ROW as not implemented, "failed" or "timed out" when no
# run of IMPL's RUN-TEST ended well, else "-".
missing_cell() {
  if [[ -n ${3:-} ]] && grep -qxF "$1|$2|$3|n/a" "$work/na.txt"; then
    echo "n/a"
    return
  fi
  awk -F'|' -v i="$1" -v t="$2" '
    $1 == i && $2 == t { if ($4 == "ok") ok = 1; else if ($4 ~ /^exit/) f = 1; else to = 1 }
    END { print ok ? "-" : (to ? "timed out" : (f ? "failed" : "-")) }' "$work/status.txt"
}

# table TITLE TEST UNIT-FORMAT BETTER(lower|higher) ROW...
# (the first column is headed $first_col, default "size")
table() {
  local title=$1 test=$2 fmt=$3 better=$4
  shift 4
  echo
  echo "### $title"
  echo
  local head="| ${first_col:-size}" sep="|---:"
  for impl in "${shown[@]}"; do
    head+=" | ${label[$impl]}"
    sep+="|---:"
  done
  if ((ratio_col)); then
    head+=" | shmpi/best-other"
    sep+="|---:"
  fi
  echo "$head |"
  echo "$sep|"
  local row line v best s
  for row in "$@"; do
    line="| $row"
    best=""
    s=""
    for impl in "${shown[@]}"; do
      v=$(value "$impl" "$test" "$row")
      if [[ -n $v ]]; then
        line+=" | $(fmt_number "$fmt" "$v")"
        if [[ $impl == shmpi ]]; then
          s=$v
        else
          best=$(awk -v a="$best" -v b="$v" -v d="$better" 'BEGIN {
            if (a == "") print b; else if (d == "lower") print (b < a ? b : a);
            else print (b > a ? b : a) }')
        fi
      else
        line+=" | $(missing_cell "$impl" "$(run_test_of "$test" "$row")" "$row")"
      fi
    done
    if ((ratio_col)); then
      if [[ -n $s && -n $best ]]; then
        line+=" | $(awk -v s="$s" -v b="$best" 'BEGIN { if (b > 0) printf "%.2f", s / b; else print "-" }')"
      else
        line+=" | -"
      fi
    fi
    echo "$line |"
  done
}

# fmt_number FORMAT VALUE: FORMAT is a printf format, or "auto" for about
# four significant digits.
fmt_number() {
  if [[ $1 == auto ]]; then
    awk -v v="$2" 'BEGIN {
      if (v >= 1000) printf "%.0f", v; else if (v >= 100) printf "%.1f", v;
      else if (v >= 10) printf "%.2f", v; else printf "%.3f", v }'
  else
    # shellcheck disable=SC2059  # the format is the caller's number format
    printf "$1" "$2"
  fi
}

rows_of() {  # rows of TEST in the order the programs print them
  if [[ $1 == coll* ]]; then
    # By operation, then size: an implementation that ran out of time has
    # fewer rows, so the order of first appearance would depend on it.
    awk -F'|' -v t="$1" '$2 == t && !seen[$3]++ {
      split($3, w, " ")
      o = index(" barrier bcast allreduce alltoall gather scatter allgather reduce_scatter_block scan neighbor_alltoall ",
                " " w[1] " ")
      print o, w[2] + 0, $3 }' "$work/all.txt" | sort -k1,1n -k2,2n | cut -d' ' -f3-
  elif [[ $1 == spawn ]]; then
    # By process count ("spawn 4 procs"), whoever printed it first.
    awk -F'|' -v t="$1" '$2 == t && !seen[$3]++ { split($3, w, " "); print w[2] + 0, $3 }' \
      "$work/all.txt" | sort -k1,1n | cut -d' ' -f2-
  else
    awk -F'|' -v t="$1" '$2 == t && !seen[$3]++ { print $3 }' "$work/all.txt"
  fi
}
size_label() {  # 4194304 -> 4 MiB (row keys stay numeric in medians.txt)
  awk -v b="$1" 'BEGIN {
    if (b >= 1048576 && b % 1048576 == 0) printf "%d MiB", b / 1048576;
    else if (b >= 1024 && b % 1024 == 0) printf "%d KiB", b / 1024;
    else printf "%d B", b }'
}

cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mpich_version=""
ompi_version=""
if [[ -n ${cc_cmd[mpich]:-} ]]; then
  mpich_version=$(mpichversion 2>/dev/null | awk -F':[ \t]*' '/MPICH Version/ { print $2 }' || true)
fi
if [[ -n ${cc_cmd[openmpi]:-} ]]; then
  ompi_version=$(ompi_info --version 2>/dev/null | head -1 || true)
fi
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)

rows() { rows_of "$1" | tr '\n' ' '; }
render() {
  echo "# shmpi comparison report"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $reps repetition(s)$( ((quick)) && echo ', --quick'), ${elapsed}s"
  echo "- machine: $(nproc) CPUs, $cpu_model; load average before $load_before, after $load_after"
  echo "- CPUs busy with other work just before the run: ${busy_before}%; steal time during the run: ${steal}%"
  if ((wait_quiet > 0)); then
    echo "- --wait-quiet: every program run waited for idle CPUs; $busy_runs run(s) started busy anyway"
  fi
  if ((busy_before >= 10 || busy_runs > 0)); then
    echo "- WARNING: the machine was busy; figures from a busy 2-core machine are"
    echo "  not comparable with quiet ones (see --wait-quiet)"
  fi
  echo "- implementations: ${impls[*]-none}${mpich_version:+; MPICH $mpich_version}${ompi_version:+; $ompi_version}"
  for impl in shmpi mpich openmpi; do
    if wanted "$impl" && [[ -n ${why_missing[$impl]:-} ]]; then
      echo "- ${label[$impl]}: not run (${why_missing[$impl]})"
    fi
  done
  echo "- every cell: median over repetitions of each run's median over timing batches;"
  echo "  ranks bound round robin to the $(nproc) cores (2-rank runs: cores 0 and 1; more"
  echo "  ranks than cores share them)"
  echo "- ratio: shmpi divided by the best of the others (latency: < 1 is shmpi ahead;"
  echo "  bandwidth, message rate and communicator creation rate: > 1 is shmpi ahead)"
  local comm_ran
  comm_ran=$(awk -F'|' '$2 ~ /^comm[0-9]+$/ && !seen[$2]++ { printf "%s%s", (n++ ? ", " : ""), substr($2, 5) }' \
    "$work/status.txt")
  if [[ -n $comm_ran ]]; then
    echo "- communicator creation: dup = \`MPI_Comm_dup(MPI_COMM_WORLD)\` + \`MPI_Comm_free\`,"
    echo "  split = \`MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank)\` + \`MPI_Comm_free\`,"
    echo "  split_use = that split, one \`MPI_Allreduce\` of an int on the new communicator"
    echo "  (its first collective) and the free;"
    echo "  np=$comm_ran (more ranks than the $(nproc) cores share them); runs limited to ${comm_timeout}s"
  fi
  # Runs that did not end well, per implementation and test.
  local failed
  failed=$(awk -F'|' -v names="shmpi=${label[shmpi]},mpich=${label[mpich]},openmpi=${label[openmpi]}" '
    BEGIN { n = split(names, a, ","); for (i = 1; i <= n; i++) { split(a[i], kv, "="); lab[kv[1]] = kv[2] } }
    { k = $1 "|" $2; if (!(k in all)) order[++m] = k; all[k]++
      if ($4 != "ok") { if (!((k, $4) in cnt)) what[k] = what[k] "|" $4; cnt[k, $4]++ } }
    END { for (i = 1; i <= m; i++) { k = order[i]; if (!(k in what)) continue
            split(k, p, "|"); printf "%s%s %s:", (c++ ? "; " : ""), lab[p[1]], p[2]
            ns = split(substr(what[k], 2), st, "|")
            for (j = 1; j <= ns; j++) printf "%s %s x%d", (j > 1 ? "," : ""), st[j], cnt[k, st[j]]
            printf " (of %d runs)", all[k] } }' \
    "$work/status.txt")
  [[ -z $failed ]] || echo "- runs that failed or timed out: $failed"
  local t times=""
  for t in ${tests[@]+"${tests[@]}"}; do
    t=${t%%|*}
    [[ -n ${test_ms[$t]:-} ]] && times+="${times:+, }$t $((test_ms[$t] / 1000))"
  done
  [[ -z $times ]] || echo "- seconds per test (all implementations and repetitions): $times"

  local r
  local -a lat_rows=() bw_rows=() mr_rows=()
  for r in $(rows latency); do lat_rows+=("$r"); done
  for r in $(rows bw); do bw_rows+=("$r"); done
  for r in $(rows msgrate); do mr_rows+=("$r"); done
  if ((${#lat_rows[@]})); then
    table "Ping-pong latency, one way (µs, np=2; lower is better)" latency auto lower "${lat_rows[@]}" |
      relabel
  fi
  if ((${#bw_rows[@]})); then
    table "Bandwidth, window of 64 (MB/s, np=2; higher is better)" bw "%.0f" higher "${bw_rows[@]}" | relabel
  fi
  if ((${#mr_rows[@]})); then
    table "Message rate, window of 64 (million msgs/s, np=2; higher is better)" msgrate "%.2f" higher \
      "${mr_rows[@]}" | relabel
  fi
  local -a part_rows=()
  while IFS= read -r r; do part_rows+=("$r"); done < <(rows_of part)
  if ((${#part_rows[@]})); then
    echo
    echo "Partitioned: \"P x B\" is one iteration (MPI_Start, MPI_Pready of P partitions of"
    echo "B bytes, MPI_Wait on both sides) in a stream; \"plain send N\" is MPI_Send/MPI_Recv"
    echo "of the same N = P x B bytes; \"P x B alloc_mem\" is the iteration with both buffers"
    echo "from MPI_Alloc_mem; \"early bird\" is the time from MPI_Pready(p) on rank 0"
    echo "until MPI_Parrived(p) is true on rank 1, partitions readied 20 µs apart (mean over p)."
    first_col=case table "Partitioned communication (µs, np=2; lower is better)" part auto lower \
      "${part_rows[@]}"
  fi
  local -a rma_rows=()
  while IFS= read -r r; do rma_rows+=("$r"); done < <(rows_of rma)
  if ((${#rma_rows[@]})); then
    echo
    echo "One-sided: rank 1's window from MPI_Win_allocate; rank 0 holds MPI_Win_lock_all and"
    echo "times one call and MPI_Win_flush(1) (data complete at the target): put, get, acc"
    echo "(MPI_Accumulate of doubles, MPI_SUM), fetch_and_op (one long, MPI_SUM); fence: an"
    echo "8-byte MPI_Put and one MPI_Win_fence on both ranks."
    first_col=case table "One-sided communication (µs, np=2; lower is better)" rma auto lower \
      "${rma_rows[@]}"
  fi
  local -a io_rows=()
  while IFS= read -r r; do io_rows+=("$r"); done < <(rows_of io)
  if ((${#io_rows[@]})); then
    echo
    echo "MPI-IO: one file in \$TMPDIR (/tmp), each rank its own block of the size at"
    echo "rank x size, rewritten or reread in place (page cache); the slowest rank's time."
    echo "pwrite is the floor: POSIX pwrite of the same block, no MPI. open_close is"
    echo "MPI_File_open + MPI_File_close of the file."
    first_col=case table "MPI-IO (µs, np=2; lower is better)" io auto lower "${io_rows[@]}"
  fi
  local -a cr=()
  local where coll_shown=0
  for n in ${coll_nps[@]+"${coll_nps[@]}"}; do
    cr=()
    while IFS= read -r r; do cr+=("$r"); done < <(rows_of "coll$n")
    ((${#cr[@]})) || continue
    if ((!coll_shown)); then
      echo
      echo "Collectives: bcast from root 0; allreduce of MPI_DOUBLE with MPI_SUM; alltoall of"
      echo "MPI_BYTE, the size being the block sent to each peer. n/a: the implementation"
      echo "returned an error for the operation (it lacks it)."
      if [[ -n $coll_ops ]]; then
        echo "gather and scatter: root 0, MPI_BYTE, the size being each rank's block, each"
        echo "call timed alone as bcast; allgather (MPI_BYTE) and reduce_scatter_block"
        echo "(MPI_DOUBLE, MPI_SUM): each rank's block; scan: MPI_DOUBLE with MPI_SUM;"
        echo "neighbor_alltoall: MPI_BYTE on a ring (dist graph), the block sent to each neighbour."
      fi
      coll_shown=1
    fi
    where=""
    ((n > $(nproc))) && where=" on $(nproc) cores"
    [[ $coll_comm == inter ]] && where+=", intercommunicator of the lower $((n / 2)) and the upper $((n - n / 2))"
    table "Collectives, np=$n$where (µs per call, slowest rank; lower is better)" "coll$n" auto lower \
      "${cr[@]}" | relabel
  done
  local -a comm_rows=()
  local op n
  for op in dup split split_use; do
    for n in ${comm_nps[@]+"${comm_nps[@]}"}; do
      grep -q "^[^|]*|comm$n|" "$work/status.txt" && comm_rows+=("$op np=$n")
    done
  done
  if ((${#comm_rows[@]})); then
    first_col=operation table "Communicator creation (create + free per second, slowest rank; higher is better)" \
      comm auto higher "${comm_rows[@]}"
  fi
  local -a spawn_rows=()
  while IFS= read -r r; do spawn_rows+=("$r"); done < <(rows_of spawn)
  if ((${#spawn_rows[@]})); then
    echo
    echo "Spawn: MPI_COMM_WORLD of 2 ranks calls MPI_Comm_spawn of K processes of the"
    echo "program (root 0, MPI_INFO_NULL), then MPI_Comm_disconnect; the children only"
    echo "disconnect and finalize. Timed on both parents after a barrier, the slowest one's"
    echo "time, median over the repetitions after an untimed first spawn. shmpi runs with"
    echo "--universe-size 96 (it never reuses a slot), Open MPI with the tcp btl beside"
    echo "vader (vader cannot reach another job). n/a: the first spawn failed. A spawn"
    echo "that has not returned after 10 s ends the run (exit 3) with the repetitions so far."
    first_col=case table "MPI_Comm_spawn + MPI_Comm_disconnect (µs per call, np=2 parents, slowest parent; lower is better)" \
      spawn auto lower "${spawn_rows[@]}"
  fi
  if [[ -n $floor_bin ]]; then
    echo
    echo "### Physical floor (cores $cores)"
    echo
    echo "| measure | median |"
    echo "|---|---:|"
    local b
    floor_row "one cache line, one way" cacheline_oneway '%.1f' ns
    floor_row "flag + ack lines, one way" flag_ack_oneway '%.1f' ns
    floor_row "two-process barrier, a line each" barrier_two_lines '%.1f' ns
    floor_row "two-process barrier, one shared line" barrier_one_line '%.1f' ns
    for b in 8 1024; do
      floor_row "broadcast of $(size_label "$b") after a barrier (plain loads and stores), reader's time" \
        "bcast_after_barrier_$b" '%.1f' ns
    done
    for b in 65536 1048576 4194304 268435456; do
      floor_row "memcpy $(size_label "$b")" "memcpy $b" '%.1f' GB/s
    done
    floor_row "two processes on one core handing it over (sched_yield)" yield_handoff '%.1f' ns
    floor_row "four processes on two cores, a barrier (yield while a core mate is behind)" \
      "barrier_on_two 4" '%.1f' ns
    for b in 65536 1048576; do
      floor_row "two-process alltoall of $(size_label "$b") blocks, its two copies (own block, the other's in place)" \
        "alltoall_copies $b" '%.2f' µs
    done
    for p in 4 8; do
      for b in 65536 1048576; do
        floor_row "$p processes on two cores: alltoall of $(size_label "$b") blocks, copies (own block, the others' in place) and a barrier as above" \
          "alltoall_on_two $p $b" '%.2f' µs
      done
    done
  fi
  echo
  echo "Raw outputs: $work/raw"
}

# Rewrites numeric size cells ("| 65536 |", "| bcast 8 |") as sizes.
relabel() {
  local line first rest
  while IFS= read -r line; do
    if [[ $line =~ ^\|\ ([a-z_]+\ )?([0-9]+)\ \|(.*)$ ]]; then
      first="${BASH_REMATCH[1]}$(size_label "${BASH_REMATCH[2]}")"
      rest=${BASH_REMATCH[3]}
      line="| $first |$rest"
    fi
    echo "$line"
  done
}

render | tee "$out"
note "report written to $out"

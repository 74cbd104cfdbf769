# agentcompute's background process supervisor (docs/capabilities.md#background-processes).
# POSIX sh that busybox runs too. It is sent with every exec (sh -c SCRIPT ac-proc ACTION ARGS)
# and in AC_PROC_SCRIPT, so the detached supervisor can run it again; nothing is installed.
# One directory per process under $ROOT/<id>: cmd, pid, started, ended, exit (written last: the
# process has ended), reason, signal, killed (a kill was asked for), timedout, stdout and stderr
# (each cut at the per-stream cap). /run is the instance's own: the state dies with it.
set -u
ROOT=/run/agentcompute/proc
act=${1:-}
[ $# -gt 0 ] && shift

alive() {
  [ -s "$1/pid" ] && kill -0 "$(cat "$1/pid")" 2>/dev/null
}

# A process that ended (exit written) or whose supervisor is gone (lost).
finished() {
  [ -e "$1/exit" ] && return 0
  [ -s "$1/pid" ] && ! alive "$1"
}

show() {
  d=$1
  printf 'id=%s\n' "${d##*/}"
  for k in pid started ended exit reason signal killed oom0; do
    [ -e "$d/$k" ] && printf '%s=%s\n' "$k" "$(cat "$d/$k")"
  done
  if [ ! -e "$d/exit" ]; then
    if [ ! -s "$d/pid" ] || alive "$d"; then echo alive=1; fi
  fi
  printf 'stdout=%s\n' "$(wc -c <"$d/stdout" 2>/dev/null || echo 0)"
  printf 'stderr=%s\n' "$(wc -c <"$d/stderr" 2>/dev/null || echo 0)"
  printf 'cmd=%s\n' "$(head -c 300 "$d/cmd" | tr '\n\r' '  ')"
  echo .
}

# capped FILE CAP: copies stdin into FILE as it arrives (one read at a time, so a reader sees
# output while the command runs; head -c would hold it in its buffer) up to CAP bytes, then reads
# and drops the rest.
capped() {
  : >"$1"
  n=0
  while [ "$n" -lt "$2" ]; do
    b=$(($2 - n))
    [ "$b" -gt 65536 ] && b=65536
    dd bs="$b" count=1 2>/dev/null >>"$1"
    m=$(stat -c %s "$1")
    [ "$m" -eq "$n" ] && return 0
    n=$m
  done
  cat >/dev/null
}

case "$act" in
prepare)
  # As root, before a start as another user: the directory everyone may create entries in.
  mkdir -p "$ROOT" && chmod 1777 /run/agentcompute "$ROOT"
  ;;
start)
  # start ID MAX CAP TIMEOUT OOM0 COMMAND: refuses (exit 75, printing how many run) at MAX
  # running. OOM0 is the instance's OOM kill count now, which an end by signal 9 is compared with.
  id=$1 max=$2 cap=$3 timeout=$4 oom0=$5 cmd=$6
  # What the supervisor needs besides the shell (exit 69, printing the first one missing).
  for tool in setsid mkfifo dd stat; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$tool"; exit 69; }
  done
  mkdir -p "$ROOT" 2>/dev/null
  [ -d "$ROOT" ] || { echo "cannot create $ROOT" >&2; exit 70; }
  running=0
  done_list=""
  for d in "$ROOT"/*; do
    [ -d "$d" ] || continue
    if finished "$d"; then done_list="$done_list $d"; else running=$((running + 1)); fi
  done
  if [ "$running" -ge "$max" ]; then
    echo "$running"
    exit 75
  fi
  # Keep at most MAX ended ones: the oldest go first (ids sort by their start).
  n=0
  for d in $done_list; do n=$((n + 1)); done
  for d in $done_list; do
    [ "$n" -lt "$max" ] && break
    rm -rf "$d"
    n=$((n - 1))
  done
  d=$ROOT/$id
  mkdir "$d" || exit 70
  printf '%s' "$cmd" >"$d/cmd"
  date +%s >"$d/started"
  echo "$oom0" >"$d/oom0"
  setsid sh -c "$AC_PROC_SCRIPT" ac-proc run "$d" "$cap" "$timeout" </dev/null >/dev/null 2>&1 &
  i=0
  while [ ! -s "$d/pid" ] && [ "$i" -lt 50 ]; do
    sleep 0.1 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  if [ ! -s "$d/pid" ]; then
    rm -rf "$d"
    echo "the supervisor did not start within 5 s" >&2
    exit 70
  fi
  echo "$id"
  ;;
run)
  # The supervisor, in its own session: the command in its own process group, each output
  # through a FIFO into a file cut at CAP bytes (the rest is read and dropped, so the command never
  # blocks), a watchdog at TIMEOUT seconds (0: none), and the end recorded with its reason.
  d=$1 cap=$2 timeout=$3
  unset AC_PROC_SCRIPT
  mkfifo "$d/.out" "$d/.err" || exit 70
  capped "$d/stdout" "$cap" <"$d/.out" &
  capped "$d/stderr" "$cap" <"$d/.err" &
  setsid sh -c "$(cat "$d/cmd")" >"$d/.out" 2>"$d/.err" </dev/null &
  pid=$!
  echo "$pid" >"$d/pid"
  if [ "$timeout" -gt 0 ]; then
    (
      i=0
      while [ "$i" -lt "$timeout" ]; do
        sleep 1
        [ -e "$d/exit" ] && exit 0
        i=$((i + 1))
      done
      : >"$d/timedout"
      kill -s KILL "-$pid" 2>/dev/null || kill -s KILL "$pid" 2>/dev/null
    ) &
  fi
  wait "$pid"
  code=$?
  if [ -e "$d/timedout" ]; then
    reason=timed_out
  elif [ "$code" -gt 128 ]; then
    reason=killed
    echo $((code - 128)) >"$d/signal"
  else
    reason=exited
  fi
  echo "$reason" >"$d/reason"
  date +%s >"$d/ended"
  echo "$code" >"$d/exit.new" && mv "$d/exit.new" "$d/exit"
  wait
  rm -f "$d/.out" "$d/.err"
  ;;
show)
  # show [ID]: every process (or one), as key=value lines ending with a line ".".
  if [ -n "${1:-}" ]; then
    [ -d "$ROOT/$1" ] && show "$ROOT/$1"
  else
    for d in "$ROOT"/*; do
      [ -d "$d" ] && show "$d"
    done
  fi
  exit 0
  ;;
output)
  # output ID STDOUT_OFFSET STDERR_OFFSET MAX: MAX bytes of each stream from its offset.
  d=$ROOT/$1
  [ -d "$d" ] || exit 66
  [ -e "$d/stdout" ] && tail -c +$(($2 + 1)) "$d/stdout" | head -c "$4"
  [ -e "$d/stderr" ] && tail -c +$(($3 + 1)) "$d/stderr" | head -c "$4" >&2
  exit 0
  ;;
kill)
  # kill ID SIGNAL: to the command's whole process group; exit 66 when gone, 65 when it ended.
  d=$ROOT/$1
  [ -d "$d" ] || exit 66
  finished "$d" && exit 65
  pid=$(cat "$d/pid" 2>/dev/null) || exit 65
  echo "$2" >"$d/killed"
  kill -s "$2" "-$pid" 2>/dev/null || kill -s "$2" "$pid"
  ;;
*)
  echo "unknown action: $act" >&2
  exit 64
  ;;
esac

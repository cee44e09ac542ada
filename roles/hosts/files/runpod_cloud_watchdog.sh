#!/bin/sh
# runpod.cloud's pod watchdog: the pod enforces its own lease when no controller is left (docs/watchdog.md).
#   runpod_cloud_watchdog.sh arm   install into $RUNPOD_CLOUD_WATCHDOG_DIR and (re)start the loop, detached
#   runpod_cloud_watchdog.sh run   the loop itself (what arm starts)
#   runpod_cloud_watchdog.sh status   what the loop reads now: the pod's createdAt and its busiest GPU
# The lease is the pod's env, set by runpod.cloud.pod at create: RUNPOD_CLOUD_STOP_AFTER, _TERMINATE_AFTER and
# _IDLE_STOP_AFTER (whole seconds; the first two count from the pod's createdAt), _IDLE_BELOW (GPU util %, default 5).
# It acts with the pod-scoped RUNPOD_API_KEY RunPod gives every pod: never the account's key.
set -u

# An SSH session does not inherit the container's env on RunPod: its start script saves the RUNPOD_* variables here.
if [ -z "${RUNPOD_POD_ID:-}" ] && [ -r /etc/rp_environment ]; then
  # shellcheck source=/dev/null
  . /etc/rp_environment
fi

DIR=${RUNPOD_CLOUD_WATCHDOG_DIR:-${HOME:-/root}/.runpod-cloud}
SELF=$DIR/runpod_cloud_watchdog.sh
# An override also means "not RunPod's API": runpodctl (which knows only RunPod) is then never used.
API=${RUNPOD_CLOUD_API_URL:-https://api.runpod.io/v2}
# PID 1's stdout is the container log RunPod serves (GET /v2/pods/{id}/logs).
LOG=${RUNPOD_CLOUD_WATCHDOG_LOG:-/proc/1/fd/1}
INTERVAL=${RUNPOD_CLOUD_WATCHDOG_INTERVAL:-30}
STOP_AFTER=${RUNPOD_CLOUD_STOP_AFTER:-}
TERMINATE_AFTER=${RUNPOD_CLOUD_TERMINATE_AFTER:-}
IDLE_STOP_AFTER=${RUNPOD_CLOUD_IDLE_STOP_AFTER:-}
IDLE_BELOW=${RUNPOD_CLOUD_IDLE_BELOW:-5}
POD=${RUNPOD_POD_ID:-}

say() {
  line="$(date -u +%Y-%m-%dT%H:%M:%SZ) runpod.cloud watchdog: $*"
  { printf '%s\n' "$line" >>"$LOG"; } 2>/dev/null || printf '%s\n' "$line" >&2
}

# The lease's numbers are whole seconds: anything else is no lease at all, never a guess.
whole() {
  case "$1" in '' | *[!0-9]*) return 1 ;; *) [ "$1" -gt 0 ] ;; esac
}

# api METHOD PATH [BODY]: prints the body, then the HTTP status on the last line. The key goes to curl on stdin
# (a config line), never on its command line, where ps would show it.
api() {
  printf 'header = "Authorization: Bearer %s"\n' "${RUNPOD_API_KEY:-}" |
    curl -sS -m 20 -K - -X "$1" -H 'Content-Type: application/json' ${3:+--data "$3"} -w '\n%{http_code}' \
      "$API$2" 2>&1
}

# The pod's createdAt (RFC 3339) in epoch seconds, read with the pod's own key. GNU date reads the whole stamp;
# busybox's only "YYYY-MM-DD hh:mm:ss", taken as UTC (RunPod answers in Z).
created_at() {
  answer=$(api GET "/pods/$POD") || return 1
  [ "$(printf '%s\n' "$answer" | tail -n 1)" = 200 ] || return 1
  stamp=$(printf '%s' "$answer" | sed -n 's/.*"createdAt" *: *"\([^"]*\)".*/\1/p')
  [ -n "$stamp" ] || return 1
  date -u -d "$stamp" +%s 2>/dev/null ||
    date -u -d "$(printf '%s' "$stamp" | sed 's/^\([0-9-]*\)T\([0-9:]*\).*/\1 \2/')" +%s 2>/dev/null
}

# act stop|terminate REASON: one attempt; success ends the loop, a failure is retried at the next check.
act() {
  say "$1 pod $POD: $2"
  if [ -z "${RUNPOD_CLOUD_API_URL:-}" ] && command -v runpodctl >/dev/null 2>&1; then
    if [ "$1" = stop ]; then set -- stop runpodctl stop pod "$POD"; else set -- terminate runpodctl remove pod "$POD"; fi
    shift
    if out=$("$@" 2>&1); then say "$1 $2 $3 $4: done"; exit 0; fi
    say "runpodctl failed, retrying in ${INTERVAL}s: $(printf '%s' "$out" | tail -n 1)"
    return
  fi
  answer=$(api POST "/pods/$POD/action" "{\"action\":\"$1\"}")
  status=$(printf '%s\n' "$answer" | tail -n 1)
  case "$status" in
    200 | 204) say "$1 requested: HTTP $status"; exit 0 ;;
  esac
  say "$1 failed (HTTP $status), retrying in ${INTERVAL}s: $(printf '%s\n' "$answer" | sed '$d' | tail -n 1 | cut -c1-200)"
}

# The busiest GPU's utilization in percent; nothing when nvidia-smi cannot tell (a CPU pod, no driver).
gpu_util() {
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null |
    awk 'BEGIN { max = -1 } $1 ~ /^[0-9]+$/ { if ($1 + 0 > max) max = $1 + 0 } END { if (max >= 0) print max }'
}

run() {
  echo $$ >"$DIR/pid"
  created=$(date +%s)
  known=no
  idle_since=
  while :; do
    if at=$(created_at); then
      created=$at known=yes
    elif [ "$known" = no ]; then
      known=unreadable
      say "cannot read the pod's createdAt with its own key: counting the lease from $(date -u -d "@$created" +%H:%M:%SZ)"
    fi
    now=$(date +%s)
    age=$((now - created))
    if whole "$TERMINATE_AFTER" && [ "$age" -ge "$TERMINATE_AFTER" ]; then
      act terminate "lease terminate_after=${TERMINATE_AFTER}s from createdAt reached (age ${age}s)"
    elif whole "$STOP_AFTER" && [ "$age" -ge "$STOP_AFTER" ]; then
      act stop "lease stop_after=${STOP_AFTER}s from createdAt reached (age ${age}s)"
    elif whole "$IDLE_STOP_AFTER"; then
      util=$(gpu_util)
      if [ -n "$util" ] && [ "$util" -lt "$IDLE_BELOW" ]; then
        if [ -z "$idle_since" ]; then
          idle_since=$now
          say "GPUs idle (busiest ${util}% < ${IDLE_BELOW}%): stopping after ${IDLE_STOP_AFTER}s of it"
        fi
        if [ $((now - idle_since)) -ge "$IDLE_STOP_AFTER" ]; then
          act stop "GPUs idle below ${IDLE_BELOW}% for $((now - idle_since))s (idle_stop_after=${IDLE_STOP_AFTER}s)"
        fi
      elif [ -n "$idle_since" ]; then
        idle_since=
        say "GPUs busy again (busiest ${util:-unknown}%): idle clock reset"
      fi
    fi
    printf 'checked=%s created=%s idle_since=%s\n' "$now" "$created" "${idle_since:--}" >"$DIR/state.new" &&
      mv "$DIR/state.new" "$DIR/state"
    sleep "$INTERVAL"
  done
}

arm() {
  if ! whole "$STOP_AFTER" && ! whole "$TERMINATE_AFTER" && ! whole "$IDLE_STOP_AFTER"; then
    echo "runpod.cloud watchdog: pod ${POD:-?} has no lease, nothing armed"
    return 0
  fi
  if [ -z "$POD" ] || [ -z "${RUNPOD_API_KEY:-}" ]; then
    echo "runpod.cloud watchdog: RUNPOD_POD_ID and the pod's RUNPOD_API_KEY are needed, not set here" >&2
    return 1
  fi
  if ! command -v curl >/dev/null 2>&1 && { [ -n "${RUNPOD_CLOUD_API_URL:-}" ] || ! command -v runpodctl >/dev/null 2>&1; }; then
    echo "runpod.cloud watchdog: needs curl (or runpodctl) in the pod" >&2
    return 1
  fi
  umask 077
  mkdir -p "$DIR" || return 1
  # One arming at a time (mkdir is atomic); a lock left by a killed arming is stale after a minute.
  if ! mkdir "$DIR/lock" 2>/dev/null; then
    [ -n "$(find "$DIR/lock" -maxdepth 0 -mmin +1 2>/dev/null)" ] || { echo "another arming runs" >&2; return 1; }
  fi
  if [ "$0" != "$SELF" ]; then
    if ! { cp "$0" "$SELF.new" && mv "$SELF.new" "$SELF"; }; then
      rmdir "$DIR/lock"
      return 1
    fi
  fi
  # Re-arming replaces: the running loop (if the pid file still names one) goes first, so there is never two.
  old=$(cat "$DIR/pid" 2>/dev/null || true)
  if [ -n "$old" ] && grep -q runpod_cloud_watchdog "/proc/$old/cmdline" 2>/dev/null; then
    kill "$old" 2>/dev/null
  fi
  if command -v setsid >/dev/null 2>&1; then
    setsid nohup sh "$SELF" run </dev/null >/dev/null 2>&1 &
  else
    nohup sh "$SELF" run </dev/null >/dev/null 2>&1 &
  fi
  echo $! >"$DIR/pid"
  rmdir "$DIR/lock"
  say "armed (pid $!): stop_after=${STOP_AFTER:--} terminate_after=${TERMINATE_AFTER:--}" \
    "idle_stop_after=${IDLE_STOP_AFTER:--} idle_below=${IDLE_BELOW}% interval=${INTERVAL}s"
  echo "runpod.cloud watchdog: armed on pod $POD (pid $!)"
}

case "${1:-}" in
  arm) arm ;;
  run) run ;;
  # What the loop reads now, for a look from inside the pod.
  status) printf 'pod=%s created=%s busiest_gpu=%s\n' "$POD" "$(created_at || echo unreadable)" "$(gpu_util)" ;;
  *) echo "usage: $0 arm|run|status" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# `make demo`: run playbooks/demo.yml against the local RunPod simulator, then stop it.
#
# Starts tests/simulator (runpod_sim) in the background on free loopback ports, exports the
# RUNPOD_* variables from its ready file (whatever RUNPOD_* the shell had is replaced, so this
# never touches a real account), runs the playbook with this checkout as runpod.cloud, prints a
# summary (including what is left in the simulator) and stops the simulator on any exit.
#
# Knobs (environment): RUNPOD_DEMO_TIME_SCALE (default 0.2: a pod boots in 3 s instead of 15 s),
# RUNPOD_DEMO_WAIT_INTERVAL (default 1s), ANSIBLE_PLAYBOOK_ARGS (extra arguments, e.g. -v).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
BIN=${VENV_BIN:-$REPO/.venv/bin}
PY=$BIN/python
TIME_SCALE=${RUNPOD_DEMO_TIME_SCALE:-0.2}
WAIT_INTERVAL=${RUNPOD_DEMO_WAIT_INTERVAL:-1s}

[ -x "$PY" ] || { echo "demo: $PY not found; run 'make demo' (it creates the virtualenv first)" >&2; exit 2; }

workdir=$(mktemp -d "${TMPDIR:-/tmp}/runpod-demo.XXXXXX")
sim_pid=""
started=$(date +%s)

stop_simulator() {
  if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
    kill -TERM "$sim_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$sim_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
    echo "demo: simulator (pid $sim_pid) stopped"
  fi
  sim_pid=""
}
# shellcheck disable=SC2317  # invoked by the EXIT trap
on_exit() {
  local rc=$?
  stop_simulator
  rm -rf "$workdir"
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "${RUNPOD_API_KEY:-}" ]; then
  echo "demo: note: RUNPOD_API_KEY from your shell is NOT used; make demo always runs against the local simulator."
  echo "demo:       to run the same playbook on your account: ansible-playbook playbooks/demo.yml (see docs/demo.md)"
fi
# RUNPOD_API_VERSION and RUNPOD_GRAPHQL_URL too: a shell still set up for the retired REST v1 would fail the demo.
unset RUNPOD_API_KEY RUNPOD_API_URL RUNPOD_API_VERSION RUNPOD_GRAPHQL_URL RUNPOD_SERVERLESS_URL

echo "demo: starting the RunPod simulator (time scale $TIME_SCALE) ..."
PYTHONPATH="$REPO/tests/simulator${PYTHONPATH:+:$PYTHONPATH}" \
  "$PY" -m runpod_sim --ready-file "$workdir/ready.json" --state-dir "$workdir/sim-state" \
  --time-scale "$TIME_SCALE" >"$workdir/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 300); do
  [ -s "$workdir/ready.json" ] && break
  if ! kill -0 "$sim_pid" 2>/dev/null; then
    echo "demo: the simulator exited before listening:" >&2; cat "$workdir/sim.log" >&2; sim_pid=""; exit 1
  fi
  sleep 0.1
done
[ -s "$workdir/ready.json" ] || { echo "demo: the simulator did not start within 30 s" >&2; cat "$workdir/sim.log" >&2; exit 1; }

ready_value() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$workdir/ready.json" "$1"; }
RUNPOD_API_KEY=$(ready_value api_key)
RUNPOD_API_URL=$(ready_value api_v2)
RUNPOD_SERVERLESS_URL=$(ready_value serverless)
export RUNPOD_API_KEY RUNPOD_API_URL RUNPOD_SERVERLESS_URL
echo "demo: simulator listening at $(ready_value base) (pid $sim_pid); RUNPOD_API_URL=$RUNPOD_API_URL"

# Its symlink tree goes in the work directory, removed on exit: the demo leaves nothing in TMPDIR.
ANSIBLE_COLLECTIONS_PATH=$(TMPDIR="$workdir" "$PY" "$REPO/tests/collections_path.py")
export ANSIBLE_COLLECTIONS_PATH
export ANSIBLE_LOCALHOST_WARNING=False ANSIBLE_INVENTORY_UNPARSED_WARNING=False
export ANSIBLE_PYTHON_INTERPRETER=${ANSIBLE_PYTHON_INTERPRETER:-auto_silent}
export ANSIBLE_RETRY_FILES_ENABLED=False
export PATH="$BIN:$PATH"

playbook_started=$(date +%s)
rc=0
# shellcheck disable=SC2086 # ANSIBLE_PLAYBOOK_ARGS is a list of words on purpose
# A copy of the output tells the summary how the pods' host keys were checked (pipefail keeps the playbook's rc).
"$BIN/ansible-playbook" playbooks/demo.yml \
  -e "demo_wait_interval=$WAIT_INTERVAL" -e "demo_work_dir=$workdir/keys" ${ANSIBLE_PLAYBOOK_ARGS:-} 2>&1 \
  | tee "$workdir/playbook.log" || rc=$?
playbook_seconds=$(( $(date +%s) - playbook_started ))
verified=$(grep -o "host_key_check verified" "$workdir/playbook.log" | wc -l | tr -d ' ') || verified=0
strict=$(grep -c "StrictHostKeyChecking=yes -o UserKnownHostsFile=" "$workdir/playbook.log") || strict=0

if [ "$rc" -ne 0 ]; then
  echo "demo: the playbook failed (rc $rc); removing what it created ..." >&2
  "$BIN/ansible-playbook" playbooks/demo_cleanup.yml -e "demo_work_dir=$workdir/keys" >"$workdir/cleanup.log" 2>&1 \
    || echo "demo: cleanup failed too, see the output above" >&2
fi

# What is left in the simulator (the demo must leave nothing behind).
leftovers=$("$PY" - "$RUNPOD_API_URL" "$RUNPOD_API_KEY" <<'PYEOF'
import sys
import httpx
url, key = sys.argv[1].rstrip("/"), sys.argv[2]
headers = {"Authorization": f"Bearer {key}"}
counts = []
for label, path, field in (("pods", "/pods", "pods"), ("endpoints", "/serverless", "endpoints"),
                           ("templates", "/templates", "templates")):
    body = httpx.get(url + path, headers=headers, timeout=10).json()
    items = body.get(field, []) if isinstance(body, dict) else body
    counts.append(f"{len([i for i in items if i])} {label}")
print(", ".join(counts))
PYEOF
) || leftovers="unknown (could not read the simulator)"

# The playbook's teardown removes the generated key pair (and its directory) too.
if [ -e "$workdir/keys" ]; then keys_left="NOT removed: $workdir/keys is still there"; else keys_left="removed"; fi

stop_simulator
echo
echo "================================ demo summary ================================"
if [ "$rc" -eq 0 ]; then
  echo "result:      OK - 2 GPU pods + 1 serverless endpoint created, Ansible ran over SSH on the pods, all removed"
else
  echo "result:      FAILED (ansible-playbook rc $rc); see the output above"
fi
echo "playbook:    ${playbook_seconds}s (whole run $(( $(date +%s) - started ))s, simulator time scale $TIME_SCALE)"
echo "left behind: $leftovers in the simulator"
if [ "$strict" -gt 0 ]; then handoff="hand-off with StrictHostKeyChecking=yes against those keys"
else handoff="NO hand-off with StrictHostKeyChecking=yes seen"; fi
echo "host keys:   $verified pod(s) verified against RunPod's container log; $handoff"
echo "key pair:    $keys_left (generated for the demo pods)"
echo "simulator:   stopped, its temporary state removed"
echo "real RunPod: export RUNPOD_API_KEY=... && ansible-playbook playbooks/demo.yml  (docs/demo.md)"
echo "=============================================================================="
exit "$rc"

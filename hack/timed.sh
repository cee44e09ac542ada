#!/usr/bin/env bash
# hack/timed.sh SUITE COMMAND...: runs COMMAND, prints "== SUITE took N s" and appends "SUITE, the virtualenv, seconds,
# exit status" (tab-separated) to $SUITE_TIMES when it is set, so CI's log ends with a table of suite times
# (.ci/run; docs/dev/developing.md, "Time budget").
set -uo pipefail
suite=$1
shift
started=$(date +%s.%N)
"$@"
status=$?
seconds=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f}')" "$started" "$(date +%s.%N)")
echo "== $suite took $seconds s (exit $status)"
if [ -n "${SUITE_TIMES:-}" ]; then
  mkdir -p "$(dirname "$SUITE_TIMES")"
  printf '%s\t%s\t%s\t%s\n' "$suite" "${VENV:-.venv}" "$seconds" "$status" >> "$SUITE_TIMES"
fi
exit "$status"

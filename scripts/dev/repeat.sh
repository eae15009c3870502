#!/bin/sh
# Flakiness before CI sees it: runs one vitest command N times in a row and stops at the first
# failure, then says how many runs passed and how long each took.
#
#   npm run test:repeat -- 3 -c vitest.e2e.config.ts tests/e2e/claude-tui.e2e.test.ts
#   npm run test:repeat -- 5 tests/faults/live-sessions.test.ts
#
# A file that needs the host (a real CLI, the real server) runs its whole setup each time, as CI
# does; a test's own retries are no substitute (the suite has none). Add load on purpose to see
# what a busy CI machine does: e.g. `nice -n 19 sh -c 'while :; do :; done' &` per core, and stop
# it by its pid afterwards.
set -u
cd "$(dirname "$0")/../.."
runs=${1:?usage: scripts/dev/repeat.sh N <vitest arguments>}
shift
case $runs in '' | *[!0-9]*) echo "N must be a number of runs (got $runs)" >&2; exit 2 ;; esac
passed=0
i=1
while [ "$i" -le "$runs" ]; do
  started=$(date +%s)
  if node_modules/.bin/vitest run "$@"; then
    passed=$((passed + 1))
    echo "repeat: run $i of $runs passed in $(($(date +%s) - started)) s"
  else
    echo "repeat: run $i of $runs FAILED after $(($(date +%s) - started)) s ($passed passed before it)"
    exit 1
  fi
  i=$((i + 1))
done
echo "repeat: $passed of $runs runs passed"

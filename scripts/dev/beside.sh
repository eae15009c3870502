#!/bin/sh
# Two suites of the test command side by side, where one mostly waits while the other works:
#   beside.sh LABEL 'HELD COMMAND' STREAMED COMMAND...
# The streamed command prints as it runs; the held one's output is kept and printed whole, under
# LABEL, when both have ended, so the two never interleave. Either failing fails this command.
set -u
cd "$(dirname "$0")/../.."
label=$1
held_command=$2
shift 2
mkdir -p .tmp
out=$(mktemp -d .tmp/beside.XXXXXX)
sh -c "$held_command" >"$out/held.txt" 2>&1 &
held=$!
"$@"
streamed_status=$?
wait "$held"
held_status=$?
echo
echo "--- $label:"
cat "$out/held.txt"
rm -rf "$out"
[ "$streamed_status" -eq 0 ] || echo "$*: FAILED (status $streamed_status)"
[ "$held_status" -eq 0 ] || echo "$label: FAILED (status $held_status)"
[ "$streamed_status" -eq 0 ] && [ "$held_status" -eq 0 ]

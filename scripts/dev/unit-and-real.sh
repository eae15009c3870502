#!/bin/sh
# The test command's unit suite and real-server suite, side by side: the real suite's time is
# mostly waiting on its OpenViking servers (a commit's extraction, a model provider's answer), the
# unit suite's on children, sockets and deadlines, so together they take little more than the unit
# suite alone (on 2 cores: unit 5.8 min and real 2.6 min one after the other, about 6 min together).
# The unit suite prints as it runs; the real suite's output is held and printed whole when both
# have ended, so the two never interleave. The fuzzers and the soak, which keep CPU budgets of
# their own, run last in the unit suite (project `alone`), after the real suite's few minutes.
# Either failing fails the command.
set -u
cd "$(dirname "$0")/../.."
out=.tmp/unit-and-real
mkdir -p "$out"
npx vitest run -c vitest.real.config.ts >"$out/real.txt" 2>&1 &
real=$!
npx vitest run
unit_status=$?
wait "$real"
real_status=$?
echo
echo "--- the real-server suite (npm run test:real), run beside the unit suite:"
cat "$out/real.txt"
rm -rf "$out"
[ "$unit_status" -eq 0 ] || echo "unit suite: FAILED (status $unit_status)"
[ "$real_status" -eq 0 ] || echo "real-server suite: FAILED (status $real_status)"
[ "$unit_status" -eq 0 ] && [ "$real_status" -eq 0 ]

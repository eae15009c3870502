#!/bin/sh
# The test command's unit suite and real-server suite, side by side: the real suite's time is
# mostly waiting on its OpenViking servers (a commit's extraction, a model provider's answer), the
# unit suite's on children, sockets and deadlines, so together they take little more than the unit
# suite alone (on 2 cores: unit 5.8 min and real 2.6 min one after the other, about 6 min together).
# The unit suite prints as it runs; the real suite's output is printed whole when both have ended.
# The fuzzers and the soak, which keep CPU budgets of their own, run last in the unit suite
# (project `alone`), after the real suite's few minutes.
cd "$(dirname "$0")/../.."
exec sh scripts/dev/beside.sh 'the real-server suite (npm run test:real), run beside the unit suite' \
  'npx vitest run -c vitest.real.config.ts' npx vitest run

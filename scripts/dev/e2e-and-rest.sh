#!/bin/sh
# The test command's last phase: the end-to-end suite, with the real-server suite and the static
# checks beside it at a low CPU priority (D40). The unit suite before it keeps both cores busy (vmstat:
# idle under 10%), so anything beside it only stretches it; the end-to-end files run one at a time and
# mostly wait on a real CLI and its scripted model (idle 42-57% with the checks beside it). The real
# suite mostly waits on its OpenViking servers and the checks are CPU no test waits for; `nice` gives
# them what the CLIs leave, so a CLI start is never the one that waits. Their output is printed
# whole after the suite's; any failing fails the command.
cd "$(dirname "$0")/../.."
exec sh scripts/dev/beside.sh 'the real-server suite (npm run test:real) and the static checks, run beside the end-to-end suite' \
  "nice -n 10 sh scripts/dev/held.sh 'real-server suite' 'npx vitest run -c vitest.real.config.ts' 'static checks' 'sh scripts/dev/static-checks.sh'" \
  npm run test:e2e

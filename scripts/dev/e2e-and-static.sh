#!/bin/sh
# The test command's last phase: the end-to-end suite, with the static checks (the type check,
# Prettier, ESLint) beside it at a low CPU priority. The end-to-end files run one at a time and
# mostly wait on a real CLI and its model (vmstat: the cores 57-95% idle, D40), while the checks
# are pure CPU that no test waits for; `nice` gives them only what the CLIs leave, so a CLI start
# is never the one that waits. Run first, they took 2 minutes of a clean-clone run, beside the
# Python installs. The checks' output is printed whole after the suite's; either failing fails.
cd "$(dirname "$0")/../.."
exec sh scripts/dev/beside.sh 'the static checks (sh scripts/dev/static-checks.sh), run beside the end-to-end suite' \
  'nice -n 10 sh scripts/dev/static-checks.sh' npm run test:e2e

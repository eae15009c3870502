#!/bin/sh
# The test command's last phase: the end-to-end suite in two lanes, one per host, with the static
# checks (the type check, Prettier, ESLint) beside them at a low CPU priority. Within a lane the files
# run one at a time (vitest.e2e.config.ts), so no two starts of the same CLI compete; the CodeBuddy
# lane (every file but claude-*) and the Claude Code lane (claude-*) share nothing but the CPU, and
# one lane alone leaves the cores 57-95% idle (vmstat, D40): it waits on a CLI and its scripted
# model. The checks are CPU no test waits for; `nice` gives them what the CLIs leave. The plugin is
# built once before this phase (npm test), so neither lane builds it again (OV_E2E_SKIP_BUILD).
# The CodeBuddy lane prints as it runs; the Claude Code lane's and the checks' output is printed
# whole after it. Any failing fails the command.
cd "$(dirname "$0")/../.."
export OV_E2E_SKIP_BUILD=1
exec sh scripts/dev/beside.sh 'the Claude Code end-to-end files and the static checks, run beside the CodeBuddy ones' \
  "sh scripts/dev/held.sh 'Claude Code end-to-end files' 'npx vitest run -c vitest.e2e.config.ts tests/e2e/claude-' 'static checks' 'nice -n 10 sh scripts/dev/static-checks.sh'" \
  npx vitest run -c vitest.e2e.config.ts --exclude 'tests/e2e/claude-*'

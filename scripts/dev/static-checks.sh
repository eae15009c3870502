#!/bin/sh
# The test command's static checks, the type check and the linters (Prettier, ESLint), side by side:
# each is one busy process for most of a minute, and CI has two cores. Each one's output is held
# and printed whole when it ends, so the two never interleave; the exit status fails if either did.
set -u
cd "$(dirname "$0")/../.."
out=.tmp/static-checks
mkdir -p "$out"
npm run --silent typecheck >"$out/typecheck.txt" 2>&1 &
typecheck=$!
npm run --silent lint >"$out/lint.txt" 2>&1 &
lint=$!
wait "$typecheck"; typecheck_status=$?
wait "$lint"; lint_status=$?
for check in typecheck lint; do
  eval status=\$${check}_status
  if [ "$status" -eq 0 ]; then echo "$check: passed"; else echo "$check: FAILED (status $status)"; fi
  cat "$out/$check.txt"
done
rm -rf "$out"
[ "$typecheck_status" -eq 0 ] && [ "$lint_status" -eq 0 ]

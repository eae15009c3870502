#!/bin/sh
# Write-path events of the OpenViking plugin (POSIX sh): Stop, SubagentStop,
# SessionEnd, SubagentStart.
#
# Their answer is always the pass-through, and on CodeBuddy a Stop hook that
# reaches its timeout makes the agent continue (in stream-json, forever), so
# the host must not wait for node at all. This script reads the payload,
# starts `node scripts/hook.cjs detached` in the background with the payload
# on its stdin and its output discarded, and exits 0 at once. The host does
# not kill a hook's descendants (seed 000 §7), so the background dispatcher
# finishes the capture on its own.
#
# The payload is read first (`head -c`, linear; see guard-prefilter.sh for
# why not `read`) so the host's pipe is drained before this script exits.
# The cap is the detached dispatcher's own bound (16 MiB) plus one byte.
#
# Always exits 0: a failure here must never look like a blocking error.

payload=$(head -c 16777217) || exit 0
[ "${#payload}" -gt 16777216 ] && exit 0
[ -n "$payload" ] || exit 0

case $0 in
  */*) here=${0%/*} ;;
  *) here=. ;;
esac

# In its own session where setsid exists (util-linux; not on Git Bash), so a
# Ctrl-C or a closed terminal that ends the CLI does not end the capture.
if command -v setsid >/dev/null 2>&1; then set -- setsid node; else set -- node; fi

"$@" "$here/../scripts/hook.cjs" detached >/dev/null 2>&1 <<EOF &
$payload
EOF
exit 0

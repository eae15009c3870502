#!/bin/sh
# PreToolUse prefilter of the OpenViking plugin (POSIX sh).
#
# Runs on every file-tool call, so its common answer must cost next to
# nothing: when the payload does not contain "viking:" in any case, exit 0
# with no output and never start node. Only a payload that does goes on to
# the URI guard in scripts/hook.mjs, unchanged on its stdin.
#
# Why `head -c` and not the `read` builtin: sh's `read` takes one byte per
# system call from a pipe. Measured on dash: 5 ms for a 0.5 KB payload but
# 0.54 s for a 400 KB Write, and a multi-MB Write would pass the hook's 5 s
# timeout, which BLOCKS the tool on CodeBuddy. One fork of head costs ~3 ms
# and stays linear. The cap is the dispatcher's own stdin bound
# (MAX_STDIN_BYTES in src/hook/stdin.ts, 4 MiB) plus one byte: a larger
# payload would be passed through by node anyway, so it is passed here
# without reading the rest (20 MB: ~0.5 s instead of 2-4 s). Command
# substitution drops NUL bytes, which no host payload contains (JSON
# escapes them).
#
# Always exits 0: a failure here must never look like a blocking error.

payload=$(head -c 4194305) || exit 0
[ "${#payload}" -gt 4194304 ] && exit 0

case $payload in
  *[Vv][Ii][Kk][Ii][Nn][Gg]:*) ;;
  *) exit 0 ;;
esac

case $0 in
  */*) here=${0%/*} ;;
  *) here=. ;;
esac

# A here-document rather than `printf | node`: dash writes a small one
# straight into the pipe, saving the fork of a pipeline subshell. Expanded
# text is not re-scanned, so backslashes and `$` in the payload stay as sent.
node "$here/../scripts/hook.mjs" <<EOF
$payload
EOF
exit 0

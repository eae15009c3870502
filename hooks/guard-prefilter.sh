#!/bin/sh
# PreToolUse prefilter of the OpenViking plugin (POSIX sh).
#
# Runs on every file-tool call, so its common answer must cost next to
# nothing: when the payload does not contain "viking:" in any case, exit 0
# with no output and never start node. Only a payload that does goes on to
# the URI guard in scripts/hook.cjs, unchanged on its stdin.
#
# Why `head -c` and not the `read` builtin: sh's `read` takes one byte per
# system call from a pipe. Measured on dash: 5 ms for a 0.5 KB payload but
# 0.54 s for a 400 KB Write, and a multi-MB Write would pass the hook's 5 s
# timeout, which BLOCKS the tool on CodeBuddy. One fork of head costs ~3 ms
# and stays linear. The cap: the here-document below adds one newline, so
# a payload of up to MAX_STDIN_BYTES - 1 (src/protocol/stdin.ts, 4 MiB) reaches
# node inside its own bound; a larger one would be passed through by node
# anyway, so it is passed here without reading the rest (20 MB: ~0.5 s
# instead of 2-4 s). Command substitution drops NUL bytes, which no host
# payload contains (JSON escapes them).
#
# Why not awk, which would be one exec instead of sh plus a fork of head
# (0.20x a bare node instead of 0.26x here): mawk, the awk of Debian and
# Ubuntu, reads one huge record in quadratic time whatever RS is, and a
# large Write's content is one long JSON string: 20 MB took 1-2 s, 40 MB
# 4.2 s, next to the 5 s timeout (DESIGN.md D3).
#
# Always exits 0: a failure here must never look like a blocking error.

payload=$(head -c 4194304) || exit 0
[ "${#payload}" -gt 4194303 ] && exit 0

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
# `exec`: sh becomes node instead of forking it and waiting (node's hook
# mode always exits 0).
exec node "$here/../scripts/hook.cjs" <<EOF
$payload
EOF

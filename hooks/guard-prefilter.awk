# PreToolUse prefilter of the OpenViking plugin (POSIX awk).
#
# Runs on every file-tool call, so its common answer must cost next to
# nothing: when the payload does not contain "viking:" in any case, exit 0
# with no output and never start node. hooks.json runs it as
#   awk -f <root>/hooks/guard-prefilter.awk <root>
# so the host's `$SHELL -c` execs awk directly: one small process, no
# shell script, no fork. (The sh prefilter it replaces cost ~1.5x this:
# a fork of `head`, because sh's `read` takes one byte per system call
# from a pipe, 0.54 s for a 400 KB Write.)
#
# Only a payload that does contain it goes on, unchanged, to the URI guard
# in scripts/hook.mjs on its stdin. A payload over the dispatcher's own
# stdin bound (MAX_STDIN_BYTES in src/hook/stdin.ts, 4 MiB) would be passed
# through by node anyway, so it is passed here (after draining the pipe).
#
# Records end at each "e", the commonest letter of any text, instead of
# the payload being one record: mawk (Debian's and Ubuntu's awk) reads one
# huge record in quadratic time (20 MB: 1.1 s; 40 MB: 4.2 s, near the 5 s
# timeout that BLOCKS the tool), while short records keep it linear (20 MB
# of source text: 0.2 s). "viking:" holds no "e", so no record boundary can
# split it, and the payload is rebuilt exactly by joining the records with
# "e" (JSON text never ends in an "e", so none is lost at the end).
#
# The plugin root is the first operand, not a -v assignment, because
# assignments interpret backslashes (a Windows path); it is taken out of
# ARGV so awk reads stdin.
#
# Always exits 0: a failure here must never look like a blocking error.

BEGIN {
  RS = "e"
  MAX_STDIN_BYTES = 4194304
  root = ARGV[1]
  ARGV[1] = ""
}

{
  size += length($0) + 1
  if (size <= MAX_STDIN_BYTES + 1) part[NR] = $0
  if ($0 ~ /[Vv][Ii][Kk][Ii][Nn][Gg]:/) named = 1
}

END {
  if (!named || size - 1 > MAX_STDIN_BYTES) exit 0
  gsub(/'/, "'\\''", root)
  dispatcher = "exec node '" root "/scripts/hook.mjs'"
  for (i = 1; i <= NR; i++) printf "%s%s", part[i], (i < NR ? RS : "") | dispatcher
  close(dispatcher)
  exit 0
}

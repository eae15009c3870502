#!/bin/sh
# UserPromptSubmit and SessionStart of the OpenViking plugin (POSIX sh): the
# resident helper's door (DESIGN D45).
#
# Why: these are the two events the user waits on, and a warm resident
# answers either in about the server's own time, but a hook that is node
# pays node's start first (a bare `node -e 0` is the whole budget of the
# prompt row). When a resident already serves exactly this environment,
# this script hands it the event with a handful of small programs and no
# node; otherwise it becomes `node scripts/hook.cjs door <print>` at once,
# with its stdin untouched, and that hook (stages/relay.ts) asks the
# resident of its configuration, which then opens a door for this print.
#
# The door, and why it is safe:
# - the print is `cksum` of `export -p`: this shell's whole exported
#   environment, the one node would get. A door is opened only by a node
#   hook that computed the resident's real key from that same environment,
#   so a print stands for one key; no print, no door: node;
# - `<dataDir>/resident/door-<print>` names the key and the resident's pid;
#   a dead pid (a killed resident, a zombie too), a missing FIFO or a
#   missing `timeout` (macOS) is node's way, where the resident's absence is
#   known at `open` (ENXIO), which a shell cannot ask without blocking;
# - the request is a file beside the resident's own (0600: umask), the
#   reply a FIFO this script makes and `cat`s to the host: the resident
#   writes there the exact bytes node would have written (the read barrier
#   included on CodeBuddy), so both ways answer alike;
# - a resident that no longer knows the print (restarted) closes the reply
#   without reading the request: the request still there means "go to
#   node", with the payload read here;
# - the wait ends at RESIDENT_WAIT_MS (stages/relay.ts, 6 s) under
#   `timeout`, far inside the hook's timeout: past it the event goes on
#   without memories (a dropped prompt is the one thing that must not
#   happen) and the door is closed, so the next hook asks through node.
#
# Always exits 0; any failure before the request is taken is node's way.

umask 077
case $0 in
  */*) here=${0%/*} ;;
  *) here=. ;;
esac
hook=$here/../scripts/hook.cjs

# shellcheck disable=SC2046 # the two words of cksum: CRC and length.
set -- $(export -p | cksum)
print=${1-}-${2-}

# The data directory as store/paths.ts resolves it (tests/hook/relay-data-dir
# holds the two equal); a spelling it would read differently (spaces around a
# path) only costs this hook node's way.
# (`found`, not `path`: zsh ties that name to PATH.)
usable() {
  found=$1
  case $found in
    '' | *'${'*) return 1 ;;
    '~') found=${HOME-} ;;
    '~/'*) found=${HOME-}/${found#'~/'} ;;
  esac
  case $found in /*) return 0 ;; esac
  return 1
}
if usable "${OPENVIKING_CODEBUDDY_DATA_DIR-}"; then
  dir=$found/resident
elif usable "${CODEBUDDY_CONFIG_DIR-}"; then
  dir=$found/openviking/resident
else
  dir=${HOME-}/.codebuddy/openviking/resident
fi

door=$dir/door-$print
key= pid=
{ read -r key pid; } 2>/dev/null <"$door"
case $key$pid in
  *[!0-9a-f]* | '') exec node "$hook" door "$print" ;;
esac
fifo=$dir/$key.fifo
if ! kill -0 "$pid" 2>/dev/null || ! [ -p "$fifo" ] || ! command -v timeout >/dev/null 2>&1; then
  exec node "$hook" door "$print"
fi
# A killed resident nobody has reaped yet (a container's init may never) still
# answers kill -0: its state in /proc (Linux; after the last ')') says Z.
stat=
{ read -r stat; } 2>/dev/null <"/proc/$pid/stat"
case ${stat##*) } in
  [ZX]*) exec node "$hook" door "$print" ;;
esac

# The bound of src/protocol/stdin.ts, as in guard-prefilter.sh.
payload=$(head -c 4194304) || exit 0
[ "${#payload}" -gt 4194303 ] && exit 0

# From here on the payload is read: node's way gets it on its stdin.
asknode() {
  exec node "$hook" door "$print" <<EOF
$payload
EOF
}

# The working directory as node's process.cwd() reports it (symlinks
# resolved), on the request's first line.
cd -P . 2>/dev/null || asknode
newline='
'
case $PWD in *"$newline"*) asknode ;; esac
id=$$-door
request=$dir/$key-$id.request
reply=$dir/$key-$id.reply
mkfifo "$reply" 2>/dev/null || asknode
if ! printf '%s\n%s' "$PWD" "$payload" >"$request" 2>/dev/null ||
  ! printf '%s @%s\n' "$id" "$print" 2>/dev/null 1<>"$fifo"; then
  rm -f "$request" "$reply"
  asknode
fi

if timeout 6 cat "$reply"; then
  [ -e "$request" ] || exit 0
  rm -f "$request" "$reply"
  asknode
fi
# Late (or cat failed): without memories, and the next hook goes through node.
rm -f "$request" "$reply" "$door"
exit 0

#!/bin/sh
# Commands of the test command side by side, each one's output held and printed whole when it ends,
# so they never interleave:  held.sh NAME 'COMMAND' [NAME 'COMMAND']...
# Each prints under "NAME: passed" or "NAME: FAILED (status N)"; any failing fails this command.
set -u
cd "$(dirname "$0")/../.."
mkdir -p .tmp
out=$(mktemp -d .tmp/held.XXXXXX)
names=''
i=0
while [ $# -ge 2 ]; do
  i=$((i + 1))
  sh -c "$2" >"$out/$i.txt" 2>&1 &
  echo "$!" >"$out/$i.pid"
  names="$names $i"
  echo "$1" >"$out/$i.name"
  shift 2
done
failed=0
for i in $names; do
  wait "$(cat "$out/$i.pid")"
  echo "$?" >"$out/$i.status"
done
for i in $names; do
  name=$(cat "$out/$i.name")
  status=$(cat "$out/$i.status")
  if [ "$status" -eq 0 ]; then echo "$name: passed"; else echo "$name: FAILED (status $status)"; failed=1; fi
  cat "$out/$i.txt"
done
rm -rf "$out"
[ "$failed" -eq 0 ]

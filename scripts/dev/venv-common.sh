# Sourced by scripts/dev/openviking.sh and scripts/dev/recall-embed.sh: both keep a venv of
# exact pins and reinstall it only when its requirements file changed (the stamp holds the
# file's cksum), both need Python 3.10 or newer.

# is_installed EXECUTABLE STAMP REQUIREMENTS: the venv exists and was made from this file.
is_installed() {
  [ -x "$1" ] && [ "$(cat "$2" 2>/dev/null)" = "$(cksum "$3")" ]
}

# python_for NAME: prints $PYTHON or python3 when it is 3.10 or newer, else fails naming NAME.
python_for() {
  candidate=${PYTHON:-python3}
  if ! "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
    echo "$1 needs Python 3.10 or newer as \$PYTHON or python3" >&2
    return 1
  fi
  echo "$candidate"
}

# hold_install_lock DIR: one install of DIR's venv at a time. .ci/run starts both installs in the
# background while the unit suite runs, and the real-server suite's globalSetup asks for them
# again: the second caller waits here for the first, then finds the venv installed. The lock is
# flock's (released when the process ends, however it ends); without flock (macOS) there is no
# lock, and nothing starts two installs at once there.
hold_install_lock() {
  mkdir -p "$1"
  command -v flock >/dev/null 2>&1 || return 0
  exec 9>"$1/.install-lock"
  flock 9
}

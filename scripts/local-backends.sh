#!/usr/bin/env bash
# Local servers for groundgate's Azure backend, on 127.0.0.1 only:
#   - Apache TinkerPop Gremlin Server (real; the distribution zip from Maven Central, via mvn)
#     standing in for Azure Cosmos DB for Apache Gremlin: same scripts, GraphSON v2.
#   - @vercel/cosmosdb-server (an open-source emulator of the Cosmos DB NoSQL API, via npm)
#     standing in for Azure Cosmos DB for NoSQL.
#   - groundgate's FAKE of the Azure AI Search REST subset it uses (no emulator exists).
#
# Usage: bash scripts/local-backends.sh start|stop|status|env
#   start   download what is missing (cached in .cache/local-backends/), start what is not
#           running, write the status and env files; exits 0 even when a server could not
#           start (its tests then skip, naming what is missing): see `status`.
#   stop    stop the servers this script started (by their recorded process ids).
#   status  print each server's state; exits 1 if any is not up.
#   env     print `export GROUNDGATE_AZURE_...` lines for the running servers:
#           eval "$(bash scripts/local-backends.sh env)"
#
# Ports: GROUNDGATE_LOCAL_GREMLIN_PORT (18182), GROUNDGATE_LOCAL_COSMOS_PORT (18081),
# GROUNDGATE_LOCAL_SEARCH_PORT (18083). Cache folder: GROUNDGATE_BACKENDS_CACHE.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HERE="$ROOT/scripts/local-backends"
CACHE="${GROUNDGATE_BACKENDS_CACHE:-$ROOT/.cache/local-backends}"
HOST=127.0.0.1
GREMLIN_VERSION="${GROUNDGATE_GREMLIN_VERSION:-3.7.5}"
COSMOS_SERVER_VERSION="1.0.1"
GREMLIN_PORT="${GROUNDGATE_LOCAL_GREMLIN_PORT:-18182}"
COSMOS_PORT="${GROUNDGATE_LOCAL_COSMOS_PORT:-18081}"
SEARCH_PORT="${GROUNDGATE_LOCAL_SEARCH_PORT:-18083}"
# The Cosmos DB emulator's published, well-known key (not a secret); the local server takes any.
COSMOS_KEY="C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="
SEARCH_KEY="local-fake-search-key"
PYTHON="${PYTHON:-$(command -v python || command -v python3)}"
STATUS="$CACHE/status"
ENV_FILE="$CACHE/azure-local.env"

mkdir -p "$CACHE"

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
note() { echo "$1: $2" >>"$STATUS.new"; echo "  $1: $2"; }

start_gremlin() {
  local pidfile="$CACHE/gremlin.pid"
  if alive "$pidfile" && port_open "$GREMLIN_PORT"; then return 0; fi
  if ! command -v java >/dev/null 2>&1; then
    note gremlin "missing: java not found on PATH (Gremlin Server $GREMLIN_VERSION needs Java 11+)"; return 1
  fi
  local dist="$CACHE/apache-tinkerpop-gremlin-server-$GREMLIN_VERSION"
  local zip="$CACHE/gremlin-server-$GREMLIN_VERSION-distribution.zip"
  if [ ! -f "$dist/bin/gremlin-server.sh" ]; then
    if [ ! -f "$zip" ]; then
      if ! command -v mvn >/dev/null 2>&1; then
        note gremlin "missing: mvn not found to fetch org.apache.tinkerpop:gremlin-server:$GREMLIN_VERSION:zip:distribution"; return 1
      fi
      if ! mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
          "-Dartifact=org.apache.tinkerpop:gremlin-server:$GREMLIN_VERSION:zip:distribution" \
          "-DoutputDirectory=$CACHE" >"$CACHE/mvn.log" 2>&1; then
        note gremlin "missing: download of gremlin-server $GREMLIN_VERSION from Maven Central failed (see $CACHE/mvn.log)"; return 1
      fi
    fi
    if command -v unzip >/dev/null 2>&1; then unzip -q -o "$zip" -d "$CACHE"; else "$PYTHON" -m zipfile -e "$zip" "$CACHE"; fi
  fi
  if port_open "$GREMLIN_PORT"; then
    note gremlin "missing: port $GREMLIN_PORT is taken by another process (set GROUNDGATE_LOCAL_GREMLIN_PORT)"; return 1
  fi
  sed -e "s/@HOST@/$HOST/" -e "s/@PORT@/$GREMLIN_PORT/" "$HERE/gremlin-server.yaml" >"$dist/conf/groundgate.yaml"
  cp "$HERE/tinkergraph.properties" "$dist/conf/groundgate-tinkergraph.properties"
  cp "$HERE/gremlin-init.groovy" "$dist/scripts/groundgate-init.groovy"
  JAVA_OPTIONS="-Xms64m -Xmx512m" nohup bash "$dist/bin/gremlin-server.sh" "$dist/conf/groundgate.yaml" \
    >"$CACHE/gremlin.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
}

start_cosmos() {
  local pidfile="$CACHE/cosmos.pid" dir="$CACHE/cosmos"
  if alive "$pidfile" && port_open "$COSMOS_PORT"; then return 0; fi
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    note cosmos "missing: node and npm not found on PATH (@vercel/cosmosdb-server needs Node.js 20+)"; return 1
  fi
  if ! node -e 'process.exit(parseInt(process.versions.node, 10) >= 20 ? 0 : 1)'; then
    note cosmos "missing: Node.js $(node -v) is too old (@vercel/cosmosdb-server needs 20+)"; return 1
  fi
  local module="$dir/node_modules/@vercel/cosmosdb-server"
  if [ ! -f "$module/package.json" ]; then
    mkdir -p "$dir"
    if ! npm install --prefix "$dir" --no-audit --no-fund --silent "@vercel/cosmosdb-server@$COSMOS_SERVER_VERSION" \
        >"$CACHE/npm.log" 2>&1; then
      note cosmos "missing: npm install @vercel/cosmosdb-server@$COSMOS_SERVER_VERSION failed (see $CACHE/npm.log)"; return 1
    fi
  fi
  if [ ! -f "$dir/cert.pem" ]; then
    if ! command -v openssl >/dev/null 2>&1; then
      note cosmos "missing: openssl not found to make the local TLS certificate"; return 1
    fi
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -addext "basicConstraints=critical,CA:FALSE" \
      -keyout "$dir/key.pem" -out "$dir/cert.pem" >"$CACHE/openssl.log" 2>&1 \
      || { note cosmos "missing: openssl could not make a certificate (see $CACHE/openssl.log)"; return 1; }
  fi
  if port_open "$COSMOS_PORT"; then
    note cosmos "missing: port $COSMOS_PORT is taken by another process (set GROUNDGATE_LOCAL_COSMOS_PORT)"; return 1
  fi
  nohup node "$HERE/cosmos-server.js" "$module" "$HOST" "$COSMOS_PORT" "$dir/cert.pem" "$dir/key.pem" \
    >"$CACHE/cosmos.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
}

start_search() {
  local pidfile="$CACHE/search.pid"
  if alive "$pidfile" && port_open "$SEARCH_PORT"; then return 0; fi
  if [ -z "$PYTHON" ] || ! "$PYTHON" -c "import groundgate.testing.azure.fake_search" >/dev/null 2>&1; then
    note search "missing: groundgate is not importable by ${PYTHON:-python} (pip install -e '.[dev]')"; return 1
  fi
  if port_open "$SEARCH_PORT"; then
    note search "missing: port $SEARCH_PORT is taken by another process (set GROUNDGATE_LOCAL_SEARCH_PORT)"; return 1
  fi
  nohup "$PYTHON" -m groundgate.testing.azure.fake_search --host "$HOST" --port "$SEARCH_PORT" \
    >"$CACHE/search.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
}

wait_up() {  # name pidfile port seconds log
  local i
  for ((i = 0; i < $4 * 4; i++)); do
    if port_open "$3"; then return 0; fi
    if ! alive "$2"; then note "$1" "missing: the server exited while starting (see $5)"; return 1; fi
    sleep 0.25
  done
  note "$1" "missing: not listening on port $3 after $4 s (see $5)"; return 1
}

write_env() {
  {
    echo "# Local stand-ins for groundgate's Azure backend (written by scripts/local-backends.sh)."
    echo "export GROUNDGATE_AZURE_SEARCH_ENDPOINT=http://$HOST:$SEARCH_PORT   # the FAKE AI Search"
    echo "export GROUNDGATE_AZURE_SEARCH_KEY=$SEARCH_KEY"
    echo "export GROUNDGATE_AZURE_COSMOS_ENDPOINT=https://$HOST:$COSMOS_PORT"
    echo "export GROUNDGATE_AZURE_COSMOS_KEY=$COSMOS_KEY"
    echo "export GROUNDGATE_AZURE_COSMOS_CA_FILE=$CACHE/cosmos/cert.pem"
    echo "export GROUNDGATE_AZURE_GREMLIN_URL=ws://$HOST:$GREMLIN_PORT/gremlin"
    # TinkerGraph (the Gremlin stand-in) corrupts a vertex's edge set under concurrent
    # writes ("Index 2999 out of bounds for length 2999" from its HashSet): write one at a time.
    echo "export GROUNDGATE_AZURE_WRITE_CONCURRENCY=1"
  } >"$ENV_FILE"
}

start() {
  local began=$SECONDS
  echo "local backends (cache: $CACHE)"
  : >"$STATUS.new"
  local g=0 c=0 s=0
  start_gremlin || g=1   # the JVM boots while the others are prepared
  start_cosmos || c=1
  start_search || s=1
  [ $g = 0 ] && wait_up gremlin "$CACHE/gremlin.pid" "$GREMLIN_PORT" 90 "$CACHE/gremlin.log" \
    && note gremlin "up ws://$HOST:$GREMLIN_PORT/gremlin (Apache TinkerPop Gremlin Server $GREMLIN_VERSION)"
  [ $c = 0 ] && wait_up cosmos "$CACHE/cosmos.pid" "$COSMOS_PORT" 30 "$CACHE/cosmos.log" \
    && note cosmos "up https://$HOST:$COSMOS_PORT (@vercel/cosmosdb-server $COSMOS_SERVER_VERSION)"
  [ $s = 0 ] && wait_up search "$CACHE/search.pid" "$SEARCH_PORT" 30 "$CACHE/search.log" \
    && note search "up http://$HOST:$SEARCH_PORT (groundgate's FAKE of AI Search)"
  mv "$STATUS.new" "$STATUS"
  write_env
  echo "  ($((SECONDS - began)) s; env: eval \"\$(bash scripts/local-backends.sh env)\")"
  return 0
}

stop() {
  local name pidfile pid i
  for name in gremlin cosmos search; do
    pidfile="$CACHE/$name.pid"
    if alive "$pidfile"; then
      pid="$(cat "$pidfile")"
      kill "$pid" 2>/dev/null
      for ((i = 0; i < 40; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
      echo "  $name: stopped"
    fi
    rm -f "$pidfile"
  done
  rm -f "$STATUS"
}

status() {
  if [ ! -f "$STATUS" ]; then echo "not started: bash scripts/local-backends.sh start"; return 1; fi
  # the file says what the last start brought up; a server that died since is said so
  local line name pidfile ok=0
  while IFS= read -r line; do
    name="${line%%:*}"
    pidfile="$CACHE/$name.pid"
    if [[ "$line" == *": up "* ]] && ! { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }; then
      echo "$name: down (it stopped since it was started; run: bash scripts/local-backends.sh start)"
      ok=1
    else
      echo "$line"
      [[ "$line" == *": missing"* ]] && ok=1
    fi
  done < "$STATUS"
  return $ok
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) [ -f "$ENV_FILE" ] && cat "$ENV_FILE" || { echo "# not started: bash scripts/local-backends.sh start" >&2; exit 1; } ;;
  *) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

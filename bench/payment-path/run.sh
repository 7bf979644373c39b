#!/usr/bin/env bash
# How many of the project's source files one keyed payment runs through, measured with JaCoCo.
#
#   bash bench/payment-path/run.sh [Maven options...]
#
# Starts the shop with the README's run command (-Pdevelopment package liberty:run: embedded H2, the
# gateway sandbox in the same server) and JaCoCo's agent in the server JVM, creates two orders, pays
# the first (warm-up), resets the coverage, pays the second with a fresh Idempotency-Key (must answer
# 201), dumps the coverage and lists the source files whose code ran (list-files.sh). Stops the server
# whatever happens. Exits non-zero if the server does not come up or a payment is not a 201.
#
# Maven options go to every mvn call, e.g. -o -Dmaven.repo.local=/path/to/repository.
# Ports (loopback only): PAYMENT_PATH_HTTP_PORT (19080), PAYMENT_PATH_HTTPS_PORT (19443),
# PAYMENT_PATH_JACOCO_PORT (19300). PAYMENT_PATH_WARM_UPS (1): warm-up payments before the reset.
# Work folder: target/payment-path (git-ignored); the listing of the latest run is
# target/payment-path/payment-path.txt. README.md beside this file says what the number means.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MVN_OPTS=("$@")
COMMAND_LINE="bash bench/payment-path/run.sh${*:+ $*}"

# Pinned tools, from Maven Central only.
JACOCO_VERSION=0.8.15
DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

HTTP_PORT=${PAYMENT_PATH_HTTP_PORT:-19080}
HTTPS_PORT=${PAYMENT_PATH_HTTPS_PORT:-19443}
JACOCO_PORT=${PAYMENT_PATH_JACOCO_PORT:-19300}
BASE=http://localhost:$HTTP_PORT
READY_TIMEOUT=${PAYMENT_PATH_READY_TIMEOUT:-1200} # seconds, the build included
WARM_UPS=${PAYMENT_PATH_WARM_UPS:-1}               # warm-up payments, each of its own order

WORK=$ROOT/target/payment-path
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RUN=$WORK/runs/$STAMP
JACOCO=$WORK/jacoco
AGENT=$JACOCO/org.jacoco.agent-$JACOCO_VERSION-runtime.jar
CLI=$JACOCO/org.jacoco.cli-$JACOCO_VERSION-nodeps.jar
WLP=$ROOT/ecommerce-app/shop-web/target/liberty/wlp
SERVER=shop
mkdir -p "$RUN" "$JACOCO"
log() { echo "[payment-path $(date -u +%H:%M:%S)] $*"; }
fail() { echo "[payment-path] FAILED: $*" >&2; exit 1; }

command -v curl >/dev/null || fail "curl is needed to send the requests"
command -v java >/dev/null || fail "a JDK (java) is needed"
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
export JAVA_HOME

# ---- nothing may listen on our ports, and this worktree's server must not be running ------------
in_use() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
for port in "$HTTP_PORT" "$HTTPS_PORT" "$JACOCO_PORT"; do
  if in_use 127.0.0.1 "$port" || in_use ::1 "$port"; then
    fail "port $port is in use; free it or set PAYMENT_PATH_HTTP_PORT / _HTTPS_PORT / _JACOCO_PORT"
  fi
done
# liberty:run writes no pid file: `server status` says whether this checkout's server runs.
if [ -x "$WLP/bin/server" ] && "$WLP/bin/server" status "$SERVER" >/dev/null 2>&1; then
  fail "the Liberty server '$SERVER' of this checkout is running (the README's command?); stop it first"
fi

# ---- cleanup: always stop what this run started --------------------------------------------------
MVN_PID=
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_shop
  if [ $rc = 0 ]; then
    log "done: $WORK/payment-path.txt (this run: $RUN)"
  else
    log "FAILED with exit code $rc (logs in $RUN)"
  fi
  exit $rc
}
# descendants PID: every process below PID (from /proc; the server JVM is a grandchild of Maven's).
descendants() {
  local stat rest state ppid pid
  for stat in /proc/[0-9]*/stat; do
    read -r rest 2>/dev/null <"$stat" || continue
    rest=${rest##*) }
    read -r state ppid _ <<<"$rest"
    if [ "$ppid" = "$1" ]; then
      pid=${stat#/proc/}
      pid=${pid%/stat}
      echo "$pid"
      descendants "$pid"
    fi
  done
}
alive() { local pid; for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 0; done; return 1; }
end_processes() { # SIGTERM, 60 s, SIGKILL
  alive "$@" || return 0
  kill -TERM "$@" 2>/dev/null || true
  for _ in $(seq 60); do alive "$@" || return 0; sleep 1; done
  kill -KILL "$@" 2>/dev/null || true
}
stop_shop() {
  [ -n "$MVN_PID" ] || return 0
  local tree
  tree=$(descendants "$MVN_PID")
  if [ -x "$WLP/bin/server" ] && alive $tree; then
    log "stopping the shop (server stop $SERVER)"
    if timeout 120 "$WLP/bin/server" stop "$SERVER" >"$RUN/server-stop.log" 2>&1; then
      # liberty:run ends when its server does.
      for _ in $(seq 30); do alive "$MVN_PID" || break; sleep 1; done
    fi
  fi
  tree="$tree $(descendants "$MVN_PID")"
  if alive "$MVN_PID" $tree; then
    log "ending Maven ($MVN_PID) and what it started"
    end_processes "$MVN_PID" $tree
  fi
  wait "$MVN_PID" 2>/dev/null || true
  MVN_PID=
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$ROOT"

# ---- JaCoCo's agent and command line, pinned, from Maven Central ---------------------------------
for artifact in org.jacoco.agent:runtime org.jacoco.cli:nodeps; do
  name=${artifact%%:*} classifier=${artifact#*:}
  [ -f "$JACOCO/$name-$JACOCO_VERSION-$classifier.jar" ] && continue
  log "fetching org.jacoco:$name:$JACOCO_VERSION:$classifier"
  mvn -B -N "${MVN_OPTS[@]}" -f "$ROOT/pom.xml" "$DEPENDENCY_PLUGIN:copy" \
    -Dartifact="org.jacoco:$name:$JACOCO_VERSION:jar:$classifier" -DoutputDirectory="$JACOCO" \
    >"$RUN/fetch-$name.log" 2>&1 || { tail -30 "$RUN/fetch-$name.log" >&2; fail "could not fetch $name"; }
done

# ---- the shop: the README's run command, with the agent, on our ports ----------------------------
# Everything is given through the environment of this one command, so nothing is written into the
# server's folder that a later README run would inherit: the ports (HTTP_PORT, HTTPS_PORT; the
# sandbox URL follows http.port), a fresh H2 database in this run's folder (SHOP_H2_DIR), the three
# scheduled jobs off (a run falling inside the measured second would be counted), and the agent
# (JVM_ARGS, which Liberty's server script passes to the server JVM; single-quoted because the
# script evals it). The sandbox still keeps its own charges under the server's db folder.
AGENT_OPTIONS="includes=com.banhang.*,output=tcpserver,address=127.0.0.1,port=$JACOCO_PORT"
SHOP_COMMAND=(mvn -B "${MVN_OPTS[@]}" -pl ecommerce-app/shop-web -am -DskipTests -Pdevelopment
  package liberty:run)
log "starting the shop on $BASE (${SHOP_COMMAND[*]}), log: $RUN/shop.log"
env HTTP_PORT="$HTTP_PORT" HTTPS_PORT="$HTTPS_PORT" SHOP_H2_DIR="$RUN/h2" \
  PAYMENTS_RECONCILIATION_INTERVAL=PT0S PAYMENTS_LATE_CHARGES_INTERVAL=PT0S \
  IDEMPOTENCY_RETENTION_INTERVAL=PT0S \
  EVENTS_RELAY_INTERVAL=PT0S EVENTS_WEBHOOKS_INTERVAL=PT0S EVENTS_RETENTION_INTERVAL=PT0S \
  PAYMENTS_GATEWAY_WEBHOOKS_INTERVAL=PT0S SANDBOX_WEBHOOKS_URL= \
  JVM_ARGS="'-javaagent:$AGENT=$AGENT_OPTIONS'" \
  "${SHOP_COMMAND[@]}" >"$RUN/shop.log" 2>&1 </dev/null &
MVN_PID=$!

log "waiting for GET /health = 200 (at most $READY_TIMEOUT s, the build included)"
HEALTH=000
for _ in $(seq "$READY_TIMEOUT"); do
  HEALTH=$(curl -s -o "$RUN/health.json" -w '%{http_code}' "$BASE/health" || true)
  [ "$HEALTH" = 200 ] && break
  if ! kill -0 "$MVN_PID" 2>/dev/null; then
    tail -40 "$RUN/shop.log" >&2
    fail "the build or the server ended before the shop was ready (log: $RUN/shop.log)"
  fi
  sleep 1
done
if [ "$HEALTH" != 200 ]; then
  cat "$RUN/health.json" >&2 2>/dev/null || true
  tail -40 "$RUN/shop.log" >&2
  fail "the shop is not healthy after $READY_TIMEOUT s (last answer $HEALTH)"
fi
log "ready: $(cat "$RUN/health.json")"

# ---- the requests ---------------------------------------------------------------------------------
# request NAME PATH BODY: a keyed POST as alice with a fresh Idempotency-Key; prints the status.
request() {
  local key
  key=$(cat /proc/sys/kernel/random/uuid)
  echo "$1 Idempotency-Key: $key" >>"$RUN/keys.txt"
  curl -s -o "$RUN/$1.body" -D "$RUN/$1.headers" -w '%{http_code}' -u alice:alice-secret \
    -H "Idempotency-Key: $key" -H 'Content-Type: application/json' --data "$3" "$BASE$2" || true
}
expect_201() {
  local status=$1 name=$2
  if [ "$status" != 201 ]; then
    cat "$RUN/$name.headers" "$RUN/$name.body" >&2 2>/dev/null || true
    echo >&2
    fail "$name answered $status, not 201"
  fi
}
create_order() {
  local status
  status=$(request "$1" /api/v1/orders \
    "{\"currency\":\"VND\",\"merchantOrderId\":\"payment-path-$1-$STAMP\",\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":625000}]}")
  expect_201 "$status" "$1"
  tr -d '\r' <"$RUN/$1.headers" | sed -n 's#^[Ll]ocation: .*/##p'
}
pay() {
  local status
  status=$(request "$1" "/api/v1/orders/$2/payments" \
    '{"amount":1250000,"currency":"VND","paymentMethod":"pm_card_ok"}')
  expect_201 "$status" "$1"
}
dump() { # dump FILE [--reset]
  java -jar "$CLI" dump --address 127.0.0.1 --port "$JACOCO_PORT" --destfile "$1" "${@:2}" \
    >>"$RUN/jacoco-dump.log" 2>&1 || { cat "$RUN/jacoco-dump.log" >&2; fail "JaCoCo dump failed"; }
}

# The measured order is created before the reset, so that only its payment is counted.
for i in $(seq "$WARM_UPS"); do
  order=$(create_order "warm-up-order-$i")
  [ -n "$order" ] || fail "no Location in the 201 of warm-up-order-$i"
  pay "warm-up-payment-$i" "$order"
  log "warm-up payment $i of order $order: 201"
done
MEASURED_ORDER=$(create_order measured-order)
[ -n "$MEASURED_ORDER" ] || fail "no Location in the 201 of measured-order"
log "measured order $MEASURED_ORDER created; resetting the coverage"
# Everything so far (start-up, the orders, the warm-up payment) is dumped and discarded.
dump "$RUN/before-reset.exec" --reset
pay measured-payment "$MEASURED_ORDER"
# The answer can reach the client a moment before the request thread has finished (filters after
# the response is written, request-scoped clean-up): let it finish before the dump.
sleep 2
dump "$RUN/payment.exec"
log "measured payment 201 ($(sed -n 's/^[Ll]ocation: //p' "$RUN/measured-payment.headers" | tr -d '\r')); coverage in $RUN/payment.exec"

stop_shop

# ---- the listing ----------------------------------------------------------------------------------
{
  echo "# One keyed POST /api/v1/orders/{id}/payments (201): the project's source files whose code ran"
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)'), JaCoCo $JACOCO_VERSION, $WARM_UPS warm-up payment(s), $COMMAND_LINE"
  echo
  bash "$HERE/list-files.sh" "$RUN/payment.exec" "$CLI"
} >"$RUN/payment-path.txt"
cp "$RUN/payment-path.txt" "$WORK/payment-path.txt"
cat "$RUN/payment-path.txt"

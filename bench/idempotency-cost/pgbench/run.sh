#!/usr/bin/env bash
# What a key costs PostgreSQL alone, without the shop: pgbench (Debian's postgresql-15 package)
# against Debian's PostgreSQL 15, durable (fsync and synchronous_commit on), on the shop's own
# schema (sql/postgresql, every migration in order), with the statements the shop sends for one
# create: unkeyed.sql, keyed.sql, keyed-no-read.sql (keyed.sql without the read before the claim)
# and keyed-row-only.sql (the key's row and nothing else, the
# floor of any design that stores a key). Interleaved rounds; tps, mean latency and the CPU of
# PostgreSQL per transaction: the machine's busy CPU from /proc/stat less pgbench's own (run it on
# an otherwise idle machine).
#
#   bench/idempotency-cost/pgbench/run.sh [rounds (3)] [seconds per script (15)] [clients (16)]
#
# Port BENCH_PG_PORT (54381). The data directory is a temporary folder, deleted at the end.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
ROUNDS=${1:-3}
SECONDS_PER=${2:-15}
CLIENTS=${3:-16}
PORT=${BENCH_PG_PORT:-54381}
PG_BIN=/usr/lib/postgresql/15/bin
[ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/pgbench" ] \
  || { echo "needs Debian's postgresql-15 (apt-get install postgresql-15)" >&2; exit 1; }
[ -z "$(ss -Hltn "sport = :$PORT")" ] || { echo "port $PORT is in use (BENCH_PG_PORT)" >&2; exit 1; }
DATA=$(mktemp -d /tmp/banhang-pgbench.XXXXXX)
RUN_AS=()
[ "$(id -u)" = 0 ] && { chown postgres: "$DATA"; RUN_AS=(runuser -u postgres --); }
POSTMASTER=
cleanup() {
  [ -n "$POSTMASTER" ] && kill -INT "$POSTMASTER" 2>/dev/null && for _ in $(seq 30); do kill -0 "$POSTMASTER" 2>/dev/null || break; sleep 1; done
  rm -rf "$DATA"
}
trap cleanup EXIT
"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$DATA/data" -U postgres -A trust >"$DATA/initdb.log" 2>&1 || { cat "$DATA/initdb.log"; exit 1; }
"${RUN_AS[@]}" "$PG_BIN/postgres" -D "$DATA/data" -p "$PORT" -c listen_addresses=127.0.0.1 \
  -c unix_socket_directories="$DATA" -c max_connections=100 >"$DATA/postgresql.log" 2>&1 </dev/null &
for _ in $(seq 60); do "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" && break; sleep 1; done
POSTMASTER=$(head -1 "$DATA/data/postmaster.pid")
psql_() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U postgres -d postgres "$@"; }
for f in $(cd "$ROOT/sql/postgresql" && ls V*__*.sql | sort -V); do psql_ -f "$ROOT/sql/postgresql/$f" >/dev/null; done

busy() { # CPU ticks the whole machine spent busy; less pgbench's own, that is PostgreSQL's (the
  # backends of one run come and go, so counting them by process misses or double-counts some)
  awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}
HZ=$(getconf CLK_TCK)
SCRIPTS=(unkeyed keyed-row-only keyed-no-read keyed)
echo "warm-up: 10 s of each script"
for s in "${SCRIPTS[@]}"; do
  "$PG_BIN/pgbench" -n -M prepared -h 127.0.0.1 -p "$PORT" -U postgres -c "$CLIENTS" -j 2 -T 10 -f "$HERE/$s.sql" postgres >/dev/null 2>&1
done
echo "# pgbench: $("$PG_BIN/postgres" --version), fsync on, synchronous_commit on; $CLIENTS clients, 2 threads, ${SECONDS_PER} s per script, $ROUNDS rounds; $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
printf '%s\t%s\t%s\t%s\t%s\n' round script tps mean_ms db_cpu_us_per_tx
RESULTS=$DATA/results.tsv
for round in $(seq "$ROUNDS"); do
  # each round starts one script later, so that no script always runs first or last
  order=()
  for i in "${!SCRIPTS[@]}"; do order+=("${SCRIPTS[$(((i + round - 1) % ${#SCRIPTS[@]}))]}"); done
  for s in "${order[@]}"; do
    before=$(busy)
    TIMEFORMAT='%U %S'
    { time "$PG_BIN/pgbench" -n -M prepared -h 127.0.0.1 -p "$PORT" -U postgres -c "$CLIENTS" -j 2 -T "$SECONDS_PER" \
        -f "$HERE/$s.sql" postgres >"$DATA/pgbench.out" 2>&1; } 2>"$DATA/pgbench.time"
    after=$(busy)
    out=$(cat "$DATA/pgbench.out")
    client=$(awk -v hz="$HZ" '{ printf "%.0f", ($1 + $2) * hz }' "$DATA/pgbench.time")
    tx=$(awk '/number of transactions actually processed/ { print $NF }' <<<"$out")
    failed=$(awk '/number of failed transactions/ { print $5 }' <<<"$out")
    [ "${failed:-0}" = 0 ] || { echo "$out" >&2; exit 2; }
    tps=$(awk '/^tps =/ { print $3 }' <<<"$out")
    lat=$(awk '/latency average/ { print $4 }' <<<"$out")
    cpu=$(awk -v d=$((after - before - client)) -v hz="$HZ" -v n="$tx" 'BEGIN { printf "%.0f", d * 1e6 / hz / n }')
    printf '%s\t%s\t%.0f\t%s\t%s\n' "$round" "$s" "$tps" "$lat" "$cpu" | tee -a "$RESULTS"
  done
done
awk -F'\t' '
  function median(list,   a, n, i, j, t) { n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  { tps[$2] = tps[$2] " " $3; cpu[$2] = cpu[$2] " " $5 }
  END {
    split("unkeyed keyed-row-only keyed-no-read keyed", names, " ")
    t0 = median(tps["unkeyed"]); c0 = median(cpu["unkeyed"])
    for (i = 1; i <= 4; i++) {
      t = median(tps[names[i]]); c = median(cpu[names[i]])
      printf "%-15s median %5.0f tps, %4.0f us of PostgreSQL CPU per transaction; / unkeyed: throughput %.2fx, CPU %.2fx (+%.0f us)\n",
        names[i], t, c, t / t0, c / c0, c - c0
    }
  }' "$RESULTS"
echo
echo "# plans (explain.sql)"
psql_ -f "$HERE/explain.sql" 2>&1 | sed 's/^psql:[^ ]* LOG: *//'


#!/usr/bin/env bash
# The wrk-driven measurement of bench/idempotency-cost (run.sh ... --wrk runs it once the shop is
# healthy; README.md beside run.sh says what it measures). wrk is C: its client costs a few percent
# of what the shop spends per request, so the shop, not the client, is what saturates the 2 cores.
#
# From run.sh's environment: BASE_URL, SHOP_PID, POSTMASTER_PID (empty on H2), PG_PORT, RUN,
# RESULT, DB_DESCRIPTION, COMMAND_LINE, LOAD_AT_LAUNCH. Settings (environment, defaults):
#   WRK_CONNECTIONS 16, WRK_THREADS 2          the throughput shapes' load
#   WRK_WARMUP_MIN 120, WRK_WARMUP_MAX 600     seconds of warm-up, at least and at most
#   WRK_SEGMENT 10                             seconds per warm-up segment
#   WRK_STABLE 0.05                            warm-up ends when each shape's last two segments differ by less
#   WRK_ROUNDS 3, WRK_ROUND_SECONDS 15         interleaved rounds; seconds per shape
#   WRK_POOL_SIZE 500                          keys completed before the warm-up, replayed round robin
#   WRK_PROFILE 0                              1: after the rounds, one more phase per shape with a JFR
#                                              recording of the shop and (PostgreSQL) pg_stat_statements
#   WRK_DRAIN_MAX 300                          side by side: seconds the outbox-on server may take to
#                                              deliver a phase's events before the run stops
# Side by side (run.sh --outbox-off-beside; OUTBOX_OFF_BESIDE=1, BASE_URL_OFF, SHOP_PID_OFF,
# SINK_URL, SINK_PID, SERVER_ON, SERVER_OFF): the shapes are keyed on the normal server (events on)
# and keyed-off, the same create on the second one (events.outbox.enabled=false). After each phase
# of the events-on server the run waits until the sink holds every event that server recorded, and
# that wait's CPU counts into the phase: what one create costs, its event's relay and delivery
# included, and nothing of it left to run during the other server's phases.
# Exit 2 when an answer is wrong (status, replay flag) or a socket error happens: never a result
# from a run that was not answered right.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${BASE_URL:?}" "${SHOP_PID:?}" "${RUN:?}" "${RESULT:?}"
CONNECTIONS=${WRK_CONNECTIONS:-16}
THREADS=${WRK_THREADS:-2}
WARMUP_MIN=${WRK_WARMUP_MIN:-120}
WARMUP_MAX=${WRK_WARMUP_MAX:-600}
SEGMENT=${WRK_SEGMENT:-10}
STABLE=${WRK_STABLE:-0.05}
ROUNDS=${WRK_ROUNDS:-3}
ROUND_SECONDS=${WRK_ROUND_SECONDS:-15}
POOL_SIZE=${WRK_POOL_SIZE:-500}
PROFILE=${WRK_PROFILE:-0}
BESIDE=${OUTBOX_OFF_BESIDE:-0}
DRAIN_MAX=${WRK_DRAIN_MAX:-300}
ON_CREATED=0                                  # side by side: creates the events-on server answered
AUTH="Basic $(printf 'alice:alice-secret' | base64)"
HZ=$(getconf CLK_TCK)
OUT=$RUN/wrk
mkdir -p "$OUT"
PHASES=$OUT/phases.tsv
WARMUP=$OUT/warmup.tsv
: >"$PHASES"
: >"$WARMUP"
log() { echo "[wrk $(date -u +%H:%M:%S)] $*"; }
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk (Debian's package)" >&2; exit 1; }

# ---- CPU: the shop's JVM, and on PostgreSQL the postmaster, its children and its reaped children -----
ticks_of() { # utime + stime (+ cutime + cstime with "all") of one process, 0 if it is gone
  awk -v all="${2:-}" '{ sub(/^.*\) /, ""); t = $12 + $13; if (all == "all") t += $14 + $15; print t }' \
    "/proc/$1/stat" 2>/dev/null || echo 0
}
server_ticks() { # of the shop JVM $1
  local t
  t=$(ticks_of "$1")
  if [ -n "${POSTMASTER_PID:-}" ]; then
    t=$((t + $(ticks_of "$POSTMASTER_PID" all)))
    for child in $(pgrep -P "$POSTMASTER_PID"); do t=$((t + $(ticks_of "$child"))); done
  fi
  echo "$t"
}

# ---- side by side: the sink's view of each server's events -----------------------------------------
sink() { # sink count|duplicates|last <server>
  curl -sf "$SINK_URL/$1/$2" || { echo "ABORT: the webhook sink ($SINK_URL) does not answer" >&2; exit 2; }
}
# Waits until the sink holds every event the events-on server recorded so far ($ON_CREATED); prints
# the seconds it waited.
drain() {
  local start now delivered
  start=$(date +%s%N)
  while :; do
    delivered=$(sink count "$SERVER_ON") || exit 2
    [ "$delivered" -ge "$ON_CREATED" ] && break
    now=$(date +%s%N)
    if [ $(( (now - start) / 1000000000 )) -ge "$DRAIN_MAX" ]; then
      echo "ABORT: $SERVER_ON delivered $delivered of its $ON_CREATED events in ${DRAIN_MAX} s (WRK_DRAIN_MAX);" \
           "see its messages.log and the sink's log" >&2
      exit 2
    fi
    sleep 0.2
  done
  awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }'
}
# The events-off server must never deliver an event: stop at the first one.
off_is_silent() {
  local delivered
  delivered=$(sink count "$SERVER_OFF") || exit 2
  if [ "$delivered" != 0 ]; then
    echo "ABORT: $SERVER_OFF (events.outbox.enabled=false) delivered $delivered events: the switch was ignored" >&2
    exit 2
  fi
}

# ---- one phase: wrk for some seconds, its answers checked, CPU read around it --------------------
# phase <kind> <round> <shape> <connections> <seconds>; appends a line to $PHASES (or $WARMUP).
# Shape keyed-off is keyed on the events-off server (side by side).
phase() {
  local kind=$1 round=$2 shape=$3 c=$4 secs=$5
  local threads=$THREADS file=$OUT/$kind-$round-$shape-c$c.txt
  local url=$BASE_URL pid=$SHOP_PID request_shape=$shape
  [ "$shape" = keyed-off ] && { url=$BASE_URL_OFF; pid=$SHOP_PID_OFF; request_shape=keyed; }
  [ "$c" -lt "$threads" ] && threads=$c
  local before after jvm_before jvm_after drained=0
  jvm_before=$(ticks_of "$pid")
  before=$(server_ticks "$pid")
  local TIMEFORMAT='%U %S'
  { time WRK_SHAPE=$request_shape WRK_AUTH=$AUTH WRK_POOL=$OUT/pool.txt \
      wrk -t"$threads" -c"$c" -d"${secs}s" --timeout 30s -s "$HERE/shop.lua" "$url" >"$file" 2>&1; } \
    2>"$file.client-cpu" || { cat "$file" >&2; echo "ABORT: wrk failed ($kind $shape c=$c)" >&2; exit 2; }
  local result
  result=$(grep '^RESULT ' "$file" || true)
  [ -n "$result" ] || { cat "$file" >&2; echo "ABORT: no RESULT line from wrk" >&2; exit 2; }
  eval "local ${result#RESULT }"   # requests= seconds= good= bad= first_bad= mean_us= ...
  if [ "$bad" != 0 ] || [ "$socket_errors" != 0 ]; then
    cat "$file" >&2
    echo "ABORT: WRONG ANSWER in $kind $shape c=$c: $bad bad (first: $first_bad), $socket_errors socket errors" >&2
    exit 2
  fi
  if [ "$BESIDE" = 1 ] && [ "$shape" = keyed ]; then
    ON_CREATED=$((ON_CREATED + requests))
    drained=$(drain) || exit 2
  fi
  after=$(server_ticks "$pid")
  jvm_after=$(ticks_of "$pid")
  [ "$BESIDE" = 1 ] && off_is_silent
  local client
  client=$(awk '{ print $1 + $2 }' "$file.client-cpu")
  awk -v k="$kind" -v r="$round" -v s="$shape" -v c="$c" -v n="$requests" -v secs="$seconds" \
      -v m="$mean_us" -v p50="$p50_us" -v p99="$p99_us" -v dt=$((after - before)) -v hz="$HZ" \
      -v cl="$client" -v la="$(cut -d' ' -f1 /proc/loadavg)" -v jvm=$((jvm_after - jvm_before)) -v dr="$drained" \
    'BEGIN { printf "%s\t%s\t%s\t%d\t%d\t%.1f\t%.1f\t%.0f\t%d\t%d\t%.0f\t%.0f\t%s\t%.0f\t%s\n",
             k, r, s, c, n, n / secs, secs, m, p50, p99, dt * 1e6 / hz / n, cl * 1e6 / n, la, jvm * 1e6 / hz / n, dr }' \
    >>"$( [ "$kind" = warmup ] && echo "$WARMUP" || echo "$PHASES")"
  tail -1 "$( [ "$kind" = warmup ] && echo "$WARMUP" || echo "$PHASES")" \
    | awk -F'\t' -v beside="$BESIDE" '{ printf "  %-7s %-6s r%-2s c=%-3s %7.0f req/s  mean %6.0f us  p99 %6d us  server %5.0f us/req  client %4.0f us/req%s\n",
                    $1, $3, $2, $4, $6, $8, $10, $11, $12, (beside == 1 && $3 == "keyed") ? sprintf("  drained in %s s", $15) : "" }'
}

# ---- the replay pool: keys completed before anything is measured ---------------------------------
: >"$OUT/pool.txt"
[ "$BESIDE" = 1 ] && POOL_SIZE=0   # side by side: no replay shape
[ "$POOL_SIZE" -gt 0 ] && log "completing $POOL_SIZE keys for the replay shape"
for _ in $(seq "$POOL_SIZE"); do
  key=$(cat /proc/sys/kernel/random/uuid)
  status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE_URL/api/v1/orders" \
    -H "Authorization: $AUTH" -H 'Content-Type: application/json' -H "Idempotency-Key: $key" \
    --data '{"currency":"VND","items":[{"sku":"S-1","quantity":1,"unitPrice":1000}]}')
  [ "$status" = 201 ] || { echo "ABORT: creating the pool's key $key answered $status" >&2; exit 2; }
  echo "$key" >>"$OUT/pool.txt"
done

# ---- warm-up: segments cycling through the shapes until every shape's rate is stable -------------
SHAPES="keyed unkeyed replay"
[ "$BESIDE" = 1 ] && SHAPES="keyed keyed-off"
log "warm-up: ${SEGMENT} s segments of ${SHAPES// /, } at c=$CONNECTIONS, at least ${WARMUP_MIN} s, until stable within ${STABLE}"
started=$(date +%s)
segment=0
while :; do
  segment=$((segment + 1))
  for shape in $SHAPES; do phase warmup "$segment" "$shape" "$CONNECTIONS" "$SEGMENT"; done
  elapsed=$(( $(date +%s) - started ))
  stable=$(awk -F'\t' -v tol="$STABLE" '
      { last2[$3] = last1[$3]; last1[$3] = $6; n[$3]++ }
      END { ok = 1
            for (s in n) { if (n[s] < 2 || last2[s] == 0) { ok = 0; continue }
                           d = (last1[s] - last2[s]) / last2[s]; if (d < 0) d = -d; if (d >= tol) ok = 0 }
            print ok }' "$WARMUP")
  if [ "$elapsed" -ge "$WARMUP_MIN" ] && [ "$stable" = 1 ]; then
    log "warm-up stable after $elapsed s ($segment segments per shape)"
    WARMUP_END="stable after $elapsed s"
    break
  fi
  if [ "$elapsed" -ge "$WARMUP_MAX" ]; then
    log "warm-up NOT stable after $elapsed s: measuring anyway, the result says so"
    WARMUP_END="not stable within ${STABLE} after $elapsed s (the maximum)"
    break
  fi
done

# ---- the rounds: shapes interleaved, their order rotated each round ------------------------------
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
DATE_START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for round in $(seq "$ROUNDS"); do
  log "round $round of $ROUNDS"
  if [ "$BESIDE" = 1 ]; then
    # Two shapes: each goes first every other round, at both connection counts.
    if [ $((round % 2)) = 1 ]; then order="keyed keyed-off"; else order="keyed-off keyed"; fi
    order1=$order
  else
    case $((round % 3)) in
      1) order="keyed unkeyed replay" ;;
      2) order="unkeyed replay keyed" ;;
      0) order="replay keyed unkeyed" ;;
    esac
    if [ $((round % 2)) = 1 ]; then order1="keyed unkeyed"; else order1="unkeyed keyed"; fi
  fi
  for shape in $order; do phase round "$round" "$shape" "$CONNECTIONS" "$ROUND_SECONDS"; done
  for shape in $order1; do phase round "$round" "$shape" 1 "$ROUND_SECONDS"; done
done
DATE_END=$(date -u +%Y-%m-%dT%H:%M:%SZ)
LOAD_AT_END=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- side by side: what each server did with its events ---------------------------------------------
if [ "$BESIDE" = 1 ]; then
  # An event the off server recorded would reach the sink within a relay and a dispatch (1 s each).
  sleep 5
  off_is_silent
  ON_DELIVERED=$(sink count "$SERVER_ON") || exit 2
  ON_DUPLICATES=$(sink duplicates "$SERVER_ON") || exit 2
  LAST_EVENT=$(sink last "$SERVER_ON") || exit 2
  [ "$ON_DELIVERED" -gt 0 ] || { echo "ABORT: $SERVER_ON delivered no event" >&2; exit 2; }
  # The operator's view of the last one, from the events-on server itself.
  LAST_DELIVERIES=$(curl -sf -u operator:operator-secret "$BASE_URL/api/v1/admin/events/$LAST_EVENT/deliveries" || true)
  if ! grep -Eq '"status" *: *"DELIVERED"' <<<"$LAST_DELIVERIES"; then
    echo "ABORT: $SERVER_ON's operator API does not show event $LAST_EVENT delivered: $LAST_DELIVERIES" >&2
    exit 2
  fi
  SINK_CPU=$(awk -v t="$(ticks_of "$SINK_PID" all)" -v hz="$HZ" 'BEGIN { printf "%.1f", t / hz }')
  log "$SERVER_ON: $ON_DELIVERED events delivered ($ON_DUPLICATES copies again), event $LAST_EVENT DELIVERED by its operator API; $SERVER_OFF: none"
fi

# ---- the profile: one more phase per shape, recorded ---------------------------------------------
if [ "$PROFILE" = 1 ]; then
  mkdir -p "$OUT/profile"
  psql_() { psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres "$@"; }
  [ -n "${POSTMASTER_PID:-}" ] && psql_ -c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements'
  for shape in keyed unkeyed replay; do
    log "profile: $shape (JFR$( [ -n "${POSTMASTER_PID:-}" ] && echo ' and pg_stat_statements'))"
    [ -n "${POSTMASTER_PID:-}" ] && psql_ -c 'SELECT pg_stat_statements_reset()' >/dev/null
    jcmd "$SHOP_PID" JFR.start name="$shape" settings=profile >/dev/null
    phase profile 1 "$shape" "$CONNECTIONS" "$ROUND_SECONDS"
    jcmd "$SHOP_PID" JFR.stop name="$shape" filename="$OUT/profile/$shape.jfr" >/dev/null
    if [ -n "${POSTMASTER_PID:-}" ]; then
      requests=$(tail -1 "$PHASES" | cut -f5)
      psql_ -A -F $'\t' -c "SELECT round(calls::numeric / $requests, 3) AS calls_per_request,
               round((total_exec_time * 1000 / $requests)::numeric, 1) AS exec_us_per_request,
               round(mean_exec_time::numeric * 1000, 1) AS mean_us, round(rows::numeric / greatest(calls, 1), 2) AS rows_per_call,
               shared_blks_hit + shared_blks_read AS blocks, wal_bytes, regexp_replace(query, '\s+', ' ', 'g') AS query
             FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'postgres')
             ORDER BY total_exec_time DESC" >"$OUT/profile/pg_stat_statements-$shape.tsv"
    fi
  done
  if [ -n "${POSTMASTER_PID:-}" ]; then
    psql_ -A -c "SELECT count(*) AS rows, round(avg(octet_length(response_body))) AS body_bytes,
                 round(avg(octet_length(response_headers))) AS header_bytes,
                 pg_size_pretty(pg_total_relation_size('idempotency_record')) AS key_table,
                 pg_size_pretty(pg_total_relation_size('shop_order') + pg_total_relation_size('order_line')) AS order_tables
               FROM idempotency_record" >"$OUT/profile/row-sizes.txt"
  fi
fi

# ---- the result, side by side -----------------------------------------------------------------------
beside_result() {
  echo "### wrk, events on and off side by side: $DB_DESCRIPTION"
  echo
  echo "- Command: \`$COMMAND_LINE\`"
  echo "- Date: $DATE_START to $DATE_END (UTC); machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); $(java -version 2>&1 | head -1); $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2)"
  echo "- Load average: before the servers started $LOAD_AT_LAUNCH; at the first round $LOAD_AT_START; at the end $LOAD_AT_END"
  echo "- Load: wrk $THREADS threads x $CONNECTIONS connections (and 1 x 1), ${ROUND_SECONDS} s per shape, $ROUNDS interleaved rounds; warm-up ${SEGMENT} s segments, $WARMUP_END"
  echo "- Servers, one loaded at a time: keyed = $SERVER_ON (events on: recorded, relayed, and delivered as webhooks to the bench's sink); keyed-off = $SERVER_OFF (events.outbox.enabled=false); same WAR and settings otherwise"
  echo "- Server CPU per request: the loaded server's JVM$( [ -n "${POSTMASTER_PID:-}" ] && echo ' plus every PostgreSQL process (the idle server'"'"'s few background queries included)') from /proc, from the phase's start to the end of its drain (keyed: until the sink held every event the server recorded); client CPU: wrk's own; the sink used ${SINK_CPU} s of CPU in all, not counted"
  echo "- Events: $SERVER_ON delivered $ON_DELIVERED distinct events to the sink ($ON_DUPLICATES copies again), and its operator API shows the last one, $LAST_EVENT, DELIVERED; $SERVER_OFF delivered none"
  echo
  echo "#### Medians over rounds"
  echo
  echo "| shape | connections | req/s | mean | p50 | p99 | server CPU/request | of which the JVM | client CPU/request | drain |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '
    function median(list,   a, n, i, j, t) { n = split(list, a, " ")
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    $1 != "round" { next }
    { k = $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      rps[k] = rps[k] " " $6; mean[k] = mean[k] " " $8; p50[k] = p50[k] " " $9; p99[k] = p99[k] " " $10
      srv[k] = srv[k] " " $11; cli[k] = cli[k] " " $12; jvm[k] = jvm[k] " " $14; dr[k] = dr[k] " " $15 }
    END { for (i = 1; i <= n; i++) { k = order[i]; split(k, p, SUBSEP)
            printf "| %s | %s | %.0f | %.0f us | %.0f us | %.0f us | %.0f us | %.0f us | %.0f us | %s |\n", p[1], p[2],
                   median(rps[k]), median(mean[k]), median(p50[k]), median(p99[k]), median(srv[k]), median(jvm[k]), median(cli[k]),
                   p[1] == "keyed" ? sprintf("%.1f s", median(dr[k])) : "-" } }' "$PHASES"
  echo
  echo "#### Ratios off / on (ratio of the medians; in brackets each round's ratio, lowest to highest)"
  echo
  awk -F'\t' -v c="$CONNECTIONS" -v pg="${POSTMASTER_PID:-}" '
    function median(list,   a, n, i, j, t) { n = split(list, a, " ")
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function range(list, sep,   a, n, i, lo, hi) { n = split(list, a, " "); lo = hi = a[1]
      for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
      return sprintf("%.2f%s%.2f", lo, sep, hi) }
    function per_round(what, conn,   r, list) { list = ""
      for (r = 1; r <= rounds; r++) list = list " " v["keyed-off", conn, what, r] / v["keyed", conn, what, r]
      return list }
    function m(shape, conn, what) { return median(all[shape, conn, what]) }
    $1 == "round" { v[$3, $4, "rps", $2] = $6; v[$3, $4, "srv", $2] = $11; v[$3, $4, "mean", $2] = $8
                    all[$3, $4, "rps"] = all[$3, $4, "rps"] " " $6; all[$3, $4, "srv"] = all[$3, $4, "srv"] " " $11
                    all[$3, $4, "mean"] = all[$3, $4, "mean"] " " $8; all[$3, $4, "jvm"] = all[$3, $4, "jvm"] " " $14
                    if ($2 > rounds) rounds = $2 }
    END {
      split(c " 1", conns, " ")
      for (i = 1; i <= 2; i++) { n = conns[i]
        printf "- throughput at c=%d: **%.2fx** (%s)\n", n, m("keyed-off", n, "rps") / m("keyed", n, "rps"), range(per_round("rps", n), "-")
        printf "- server CPU per request at c=%d: **%.2fx** (%s); the outbox costs %+.0f us per keyed create (%.0f against %.0f us)\n", n,
               m("keyed-off", n, "srv") / m("keyed", n, "srv"), range(per_round("srv", n), "-"),
               m("keyed", n, "srv") - m("keyed-off", n, "srv"), m("keyed", n, "srv"), m("keyed-off", n, "srv")
        if (pg != "") printf "  - of which the JVM: %+.0f us (%.0f against %.0f us), the database: %+.0f us\n",
               m("keyed", n, "jvm") - m("keyed-off", n, "jvm"), m("keyed", n, "jvm"), m("keyed-off", n, "jvm"),
               (m("keyed", n, "srv") - m("keyed", n, "jvm")) - (m("keyed-off", n, "srv") - m("keyed-off", n, "jvm"))
      }
      lat = ""
      for (r = 1; r <= rounds; r++) lat = lat " " (v["keyed", 1, "mean", r] - v["keyed-off", 1, "mean", r]) / 1000
      printf "- mean latency the outbox adds at c=1 (on - off): **%+.2f ms** (%s ms)\n", (m("keyed", 1, "mean") - m("keyed-off", 1, "mean")) / 1000, range(lat, " to ")
    }' "$PHASES"
  echo
  echo "#### Warm-up (req/s per ${SEGMENT} s segment, c=$CONNECTIONS)"
  echo
  echo "| segment | keyed (events on) | keyed-off | drain after keyed |"
  echo "|---|---|---|---|"
  awk -F'\t' '{ r[$2, $3] = $6; if ($3 == "keyed") d[$2] = $15; if ($2 > n) n = $2 }
    END { for (i = 1; i <= n; i++) printf "| %d | %.0f | %.0f | %s s |\n", i, r[i, "keyed"], r[i, "keyed-off"], d[i] }' "$WARMUP"
  echo
  echo "#### Every phase, in the order run"
  echo
  echo "| kind | round | shape | connections | requests | req/s | mean us | p50 us | p99 us | server us/req | JVM us/req | client us/req | drain s | load |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $8, $9, $10, $11, $14, $12, $15, $13 }' "$PHASES"
}
if [ "$BESIDE" = 1 ]; then
  beside_result >"$RESULT"
  cat "$RESULT"
  exit 0
fi

# ---- the result -------------------------------------------------------------------------------------
{
  echo "### wrk: $DB_DESCRIPTION"
  echo
  echo "- Command: \`$COMMAND_LINE\`"
  echo "- Date: $DATE_START to $DATE_END (UTC); machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); $(java -version 2>&1 | head -1); $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2)"
  echo "- Load average: before the servers started $LOAD_AT_LAUNCH; at the first round $LOAD_AT_START; at the end $LOAD_AT_END"
  echo "- Load: wrk $THREADS threads x $CONNECTIONS connections (and 1 x 1), ${ROUND_SECONDS} s per shape, $ROUNDS interleaved rounds; warm-up ${SEGMENT} s segments, $WARMUP_END"
  echo "- Server CPU per request: the shop's JVM$( [ -n "${POSTMASTER_PID:-}" ] && echo ' plus every PostgreSQL process') from /proc; client CPU: wrk's own"
  echo
  echo "#### Medians over rounds"
  echo
  echo "| shape | connections | req/s | mean | p50 | p99 | server CPU/request | of which the JVM | client CPU/request |"
  echo "|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '
    function median(list,   a, n, i, j, t) { n = split(list, a, " ")
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    $1 != "round" { next }
    { k = $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      rps[k] = rps[k] " " $6; mean[k] = mean[k] " " $8; p50[k] = p50[k] " " $9; p99[k] = p99[k] " " $10
      srv[k] = srv[k] " " $11; cli[k] = cli[k] " " $12; jvm[k] = jvm[k] " " $14 }
    END { for (i = 1; i <= n; i++) { k = order[i]; split(k, p, SUBSEP)
            printf "| %s | %s | %.0f | %.0f us | %.0f us | %.0f us | %.0f us | %.0f us | %.0f us |\n", p[1], p[2],
                   median(rps[k]), median(mean[k]), median(p50[k]), median(p99[k]), median(srv[k]), median(jvm[k]), median(cli[k]) } }' "$PHASES"
  echo
  echo "#### Ratios (ratio of the medians; in brackets each round's ratio, lowest to highest)"
  echo
  awk -F'\t' -v c="$CONNECTIONS" -v pg="${POSTMASTER_PID:-}" '
    function median(list,   a, n, i, j, t) { n = split(list, a, " ")
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function range(list,   a, n, i, lo, hi) { n = split(list, a, " "); lo = hi = a[1]
      for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
      return sprintf("%.2f-%.2f", lo, hi) }
    $1 == "round" { v[$3, $4, "rps", $2] = $6; v[$3, $4, "srv", $2] = $11; v[$3, $4, "mean", $2] = $8
                    all[$3, $4, "rps"] = all[$3, $4, "rps"] " " $6; all[$3, $4, "srv"] = all[$3, $4, "srv"] " " $11
                    all[$3, $4, "mean"] = all[$3, $4, "mean"] " " $8; all[$3, $4, "jvm"] = all[$3, $4, "jvm"] " " $14
                    if ($2 > rounds) rounds = $2 }
    END {
      for (r = 1; r <= rounds; r++) {
        kt = kt " " v["keyed", c, "rps", r] / v["unkeyed", c, "rps", r]
        kc = kc " " v["keyed", c, "srv", r] / v["unkeyed", c, "srv", r]
        rk = rk " " v["replay", c, "rps", r] / v["keyed", c, "rps", r]
        rc = rc " " v["replay", c, "srv", r] / v["keyed", c, "srv", r]
        lat = lat " " (v["keyed", 1, "mean", r] - v["unkeyed", 1, "mean", r]) / 1000
      }
      printf "- keyed / unkeyed throughput at c=%d: **%.2fx** (%s)\n", c, median(all["keyed", c, "rps"]) / median(all["unkeyed", c, "rps"]), range(kt)
      printf "- keyed / unkeyed server CPU per request at c=%d: **%.2fx** (%s); +%.0f us per keyed create\n", c, median(all["keyed", c, "srv"]) / median(all["unkeyed", c, "srv"]), range(kc), median(all["keyed", c, "srv"]) - median(all["unkeyed", c, "srv"])
      if (pg != "") printf "  - of which the JVM: %+.0f us (%.0f against %.0f us), the database: %+.0f us\n", median(all["keyed", c, "jvm"]) - median(all["unkeyed", c, "jvm"]), median(all["keyed", c, "jvm"]), median(all["unkeyed", c, "jvm"]), (median(all["keyed", c, "srv"]) - median(all["keyed", c, "jvm"])) - (median(all["unkeyed", c, "srv"]) - median(all["unkeyed", c, "jvm"]))
      printf "- replay / keyed throughput at c=%d: **%.2fx** (%s); CPU per request %.2fx (%s)\n", c, median(all["replay", c, "rps"]) / median(all["keyed", c, "rps"]), range(rk), median(all["replay", c, "srv"]) / median(all["keyed", c, "srv"]), range(rc)
      printf "- mean latency a key adds at c=1: **%+.2f ms** (%s ms)\n", (median(all["keyed", 1, "mean"]) - median(all["unkeyed", 1, "mean"])) / 1000, range(lat)
    }' "$PHASES"
  echo
  echo "#### Warm-up (req/s per ${SEGMENT} s segment, c=$CONNECTIONS)"
  echo
  echo "| segment | keyed | unkeyed | replay |"
  echo "|---|---|---|---|"
  awk -F'\t' '{ r[$2, $3] = $6; if ($2 > n) n = $2 }
    END { for (i = 1; i <= n; i++) printf "| %d | %.0f | %.0f | %.0f |\n", i, r[i, "keyed"], r[i, "unkeyed"], r[i, "replay"] }' "$WARMUP"
  echo
  echo "#### Every phase, in the order run"
  echo
  echo "| kind | round | shape | connections | requests | req/s | mean us | p50 us | p99 us | server us/req | JVM us/req | client us/req | load |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $8, $9, $10, $11, $14, $12, $13 }' "$PHASES"
} >"$RESULT"
cat "$RESULT"

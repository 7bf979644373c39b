#!/usr/bin/env bash
# Time to settle: webhooks vs polling (docs/proof.md). One run of the build's PostgreSQL test servers
# (it-postgresql: the shop over an embedded PostgreSQL, the gateway sandbox as its own server, Kafka)
# with the production reconciliation settings, and RetryStormIT run twice on them, one storm after
# the other: first with the processor's webhooks off (reconciliation alone settles), then with them
# on and faulty. Both storms lose every gateway answer for a moment now and then (incidents), so that
# payments end with their outcome unknown; the driver runs no reconciliation itself and only waits.
# Prints, for each storm, the driver's table and the time from each unknown outcome to its
# settlement (median, p99, max, and who settled), side by side in $OUT/time-to-settle.md.
#
#   bash bench/time-to-settle/run.sh [OUT] [-- Maven options...]     (OUT: target/time-to-settle)
#
# Options, through the environment:
#   TTS_INTENTS (1000)            intents per storm, 8 customers at a time
#   TTS_INTERVAL (PT1M)           payments.reconciliation.interval of the shop (production default)
#   TTS_MIN_AGE (PT2M)            payments.reconciliation.min-age of the shop (production default)
#   TTS_LOST_AFTER_MS (3000)      first incident, after the storm's start
#   TTS_LOST_FOR_MS (2000)        how long each incident loses every answer
#   TTS_LOST_EVERY_MS (10000)     an incident starts every so often (0: once)
#   TTS_SETTLE_S (480)            how long a storm waits at most for the shop to settle its keys
#   TTS_MODULE (it-postgresql)    the suite whose servers are used (it-h2: H2)
# About 12 minutes on a 2-core machine at the defaults, most of it the webhooks-off storm: its
# customers wait up to 60 s on each unknown outcome, and its keys up to 3 minutes for reconciliation.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=target/time-to-settle
if [[ $# -gt 0 && $1 != -- ]]; then
  OUT=$1
  shift
fi
[[ ${1:-} == -- ]] && shift
MVN_OPTS=("$@")
mkdir -p "$OUT"
MODULE=${TTS_MODULE:-it-postgresql}
COMMAND_LINE="bash bench/time-to-settle/run.sh${*:+ -- $*}"

# The modules the suite runs against, installed once (the suite takes the WARs and the test-jar
# from the local repository), as bench/storm does.
echo "== installing the modules (log: $OUT/install.log)"
mvn -B -q "${MVN_OPTS[@]}" install -DskipTests -Dspotless.check.skip=true \
  -pl ecommerce-app/storm-driver,ecommerce-app/shop-web,ecommerce-app/it-faults,ecommerce-app/gateway-sandbox,ecommerce-app/sample-subscriber -am \
  >"$OUT/install.log" 2>&1 || { tail -30 "$OUT/install.log"; exit 1; }

echo "== $MODULE: RetryStormIT, webhooks off then on, ${TTS_INTENTS:-1000} intents each (log: $OUT/run.log)"
started=$(date +%s)
mvn -B "${MVN_OPTS[@]}" verify -pl "ecommerce-app/$MODULE" -Dit.test=RetryStormIT -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dspotless.check.skip=true \
  -Dit.reconciliation.interval="${TTS_INTERVAL:-PT1M}" -Dit.reconciliation.min-age="${TTS_MIN_AGE:-PT2M}" \
  -Dstorm.webhooks=off,on -Dstorm.settle-by=shop -Dstorm.settle-s="${TTS_SETTLE_S:-480}" \
  -Dstorm.intents="${TTS_INTENTS:-1000}" \
  -Dstorm.answers-lost-after-ms="${TTS_LOST_AFTER_MS:-3000}" \
  -Dstorm.answers-lost-for-ms="${TTS_LOST_FOR_MS:-2000}" \
  -Dstorm.answers-lost-every-ms="${TTS_LOST_EVERY_MS:-10000}" \
  >"$OUT/run.log" 2>&1
status=$?
echo "   exit $status after $(($(date +%s) - started)) s"

# The tables RetryStormIT printed, one column per storm: rows of the driver's table ("| storm ")
# and of TimeToSettle's ("| time to settle "), joined by their first cell.
side_by_side() {
  awk -v first="$1" -F' [|] ' '
    index($0, "| " first " ") == 1 { col++ }
    /^\| / && col > 0 {
      name = substr($1, 3); sub(/ +$/, "", name)
      value = $2; sub(/ *\|$/, "", value)
      if (!(name in seen)) { seen[name] = 1; order[++rows] = name }
      cell[name, col] = value
      if (col > cols) cols = col
    }
    /^$/ { }
    END {
      for (r = 1; r <= rows; r++) {
        line = "| " order[r]
        for (c = 1; c <= cols; c++) line = line " | " cell[order[r], c]
        print line " |"
        if (r == 1) { sep = "|---"; for (c = 1; c <= cols; c++) sep = sep "|---"; print sep "|" }
      }
    }'
}
{
  echo "# Time to settle: webhooks vs polling"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- ecommerce-app || echo ' (with uncommitted changes)'), $MODULE, $COMMAND_LINE"
  echo "TTS_INTENTS=${TTS_INTENTS:-1000} TTS_INTERVAL=${TTS_INTERVAL:-PT1M} TTS_MIN_AGE=${TTS_MIN_AGE:-PT2M} TTS_LOST_AFTER_MS=${TTS_LOST_AFTER_MS:-3000} TTS_LOST_FOR_MS=${TTS_LOST_FOR_MS:-2000} TTS_LOST_EVERY_MS=${TTS_LOST_EVERY_MS:-10000} TTS_SETTLE_S=${TTS_SETTLE_S:-480}"
  echo
  grep -E '^\| ' "$OUT/run.log" | grep -v '^| time to settle\|^| unknown outcomes\|^| settled\|^| abandoned (nothing\|^| still open' \
    | side_by_side storm
  echo
  grep -E '^\| (time to settle|unknown outcomes|settled|abandoned \(nothing|still open)' "$OUT/run.log" \
    | side_by_side "time to settle"
  echo
  grep -E '^time to settle, |^  settled by |^webhook events: |Tests run:.*Fail' "$OUT/run.log"
} >"$OUT/time-to-settle.md"
cat "$OUT/time-to-settle.md"
exit $status

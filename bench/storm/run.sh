#!/usr/bin/env bash
# The full storm tables of docs/proof.md, on the real server: 1,000 intents per storm, on H2 and on
# PostgreSQL, with idempotency as shipped and switched off, with the shop killed six times, on two
# nodes, with PostgreSQL stopped for 10 s, and on three nodes behind HAProxy with one killed and one
# restarted. Each row is the build's own storm test (RetryStormIT, CrashStormIT, TwoNodeStormIT,
# DatabaseOutageStormIT, LoadBalancedStormIT) run at full size; the tables they print are gathered in
# $OUT/tables.md. Takes about 45 minutes on a 2-core machine.
#
#   bash bench/storm/run.sh [OUT]        (OUT defaults to target/storm-bench)
#   STORM_SUITES=load-balanced bash bench/storm/run.sh    (only the suites named, comma-separated:
#                                                          h2, postgresql, h2-off, postgresql-off,
#                                                          load-balanced)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-target/storm-bench}
mkdir -p "$OUT"
INTENTS=${STORM_INTENTS:-1000}
KILLS=${STORM_KILLS:-6}

# The modules the suites run against, installed once (the suites take the WARs and the test-jar
# from the local repository).
mvn -B -q install -DskipTests \
  -pl ecommerce-app/storm-driver,ecommerce-app/shop-web,ecommerce-app/it-faults,ecommerce-app/gateway-sandbox -am \
  || exit 1

# suite NAME MODULE TESTS [ENV...]: one run of the module's servers with only TESTS, at full size.
# The build runs CrashStormIT on PostgreSQL alone (it is tagged SameOnEveryDatabase, which it-h2
# leaves out); emptying it-h2's excluded groups runs it on H2 here as well.
suite() {
  local name=$1 module=$2 tests=$3
  shift 3
  if [[ -n ${STORM_SUITES:-} && ,$STORM_SUITES, != *,$name,* ]]; then
    return
  fi
  local label=()
  if [[ -n ${STORM_LABEL:-} ]]; then
    label=("-Dstorm.label=$STORM_LABEL")
  fi
  echo "== $name: $module $tests $*"
  local extra=()
  if [[ -n ${STORM_PLAIN:-} ]]; then
    extra=("${OFF_STORM[@]}")
  fi
  env "$@" mvn -B verify -pl "ecommerce-app/$module" -Dit.test="$tests" "${extra[@]}" \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dstorm.intents="$INTENTS" -Dstorm.kills="$KILLS" \
    -Dit.h2.excluded-groups= "${label[@]}" >"$OUT/$name.log" 2>&1
  echo "   exit $? (log: $OUT/$name.log)"
}

OFF=(IDEMPOTENCY_OPERATIONS_ORDERS_CREATE_MODE=off IDEMPOTENCY_OPERATIONS_PAYMENTS_CHARGE_MODE=off
  IDEMPOTENCY_COMPARISON_ONLY_ACKNOWLEDGED=true)
# RetryStormIT turns the processor's webhooks on and adds answer-losing incidents (bench/time-to-settle);
# the comparison-only runs keep the storm of the earlier tables: without keys, a webhook finds no key
# to settle and is flagged, by design.
OFF_STORM=(-Dstorm.webhooks=off -Dstorm.answers-lost-for-ms=0)

suite h2 it-h2 'RetryStormIT,CrashStormIT'
suite postgresql it-postgresql 'RetryStormIT,CrashStormIT,TwoNodeStormIT,DatabaseOutageStormIT'
STORM_PLAIN=1 STORM_LABEL="idempotency off" suite h2-off it-h2 RetryStormIT "${OFF[@]}"
STORM_PLAIN=1 STORM_LABEL="idempotency off" suite postgresql-off it-postgresql RetryStormIT "${OFF[@]}"
# Three nodes behind HAProxy (scripts/verify.sh installs it), one killed, one restarted: a suite of
# its own, since its two extra servers are started for it alone.
suite load-balanced it-postgresql LoadBalancedStormIT

{
  echo "# Storm tables, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD)"
  for name in h2 postgresql h2-off postgresql-off load-balanced; do
    [[ -f $OUT/$name.log ]] || continue
    echo
    echo "## $name"
    grep -E '^\| |^rows deleted|^four reconciliation|^node [bc] |^requests by node|^keys c left|Tests run:.*Fail' "$OUT/$name.log"
  done
} >"$OUT/tables.md"
echo "tables: $OUT/tables.md"

#!/usr/bin/env bash
# The failover of docs/proof.md at full size: DatabaseFailoverStormIT (it-postgresql) with 1,000
# intents instead of the build's 120. A PostgreSQL primary and its synchronous standby of the test's
# own, a shop node listing both hosts with targetServerType=primary, the primary killed with SIGKILL
# 3 s into the storm and the standby promoted 3 s later; the same assertions as in the build. The
# table the test prints, and its witness line, are gathered in $OUT/tables.md. About 6 minutes on a
# 2-core machine.
#
#   bash bench/failover/run.sh [OUT] [MAVEN ARGUMENTS...]   (OUT defaults to target/failover-bench)
#
# FAILOVER_INTENTS changes the size. Maven arguments after OUT are passed to every mvn call (-o to
# build offline, for instance). Other builds using it-postgresql's fixed ports must not run at the
# same time.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-target/failover-bench}
shift || true
mkdir -p "$OUT"
INTENTS=${FAILOVER_INTENTS:-1000}

# The modules the suite runs against (the WARs and shop-web's test-jar, from the local repository);
# FAILOVER_SKIP_INSTALL=1 when they are installed already.
if [[ -z ${FAILOVER_SKIP_INSTALL:-} ]]; then
  mvn -B -q install -DskipTests "$@" \
    -pl ecommerce-app/storm-driver,ecommerce-app/shop-web,ecommerce-app/it-faults,ecommerce-app/gateway-sandbox,ecommerce-app/sample-subscriber -am \
    || exit 1
fi

echo "== failover: it-postgresql DatabaseFailoverStormIT, $INTENTS intents"
start=$(date +%s)
mvn -B verify "$@" -pl ecommerce-app/it-postgresql -Dit.test=DatabaseFailoverStormIT \
  -Dfailsafe.failIfNoSpecifiedTests=false -Dstorm.intents="$INTENTS" >"$OUT/failover.log" 2>&1
status=$?
echo "   exit $status after $(($(date +%s) - start)) s (log: $OUT/failover.log)"

{
  echo "# Failover, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(git rev-parse --short HEAD), $INTENTS intents"
  echo
  grep -E '^\| |^witness:|^primary |Tests run:.*DatabaseFailover' "$OUT/failover.log"
} >"$OUT/tables.md"
echo "tables: $OUT/tables.md"
exit $status

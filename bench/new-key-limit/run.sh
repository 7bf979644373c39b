#!/usr/bin/env bash
# What the new-key limit costs per new key: in memory only vs shared through PostgreSQL (and H2),
# side by side in one JVM (README.md beside this file). Installs the idempotency library into the
# local repository first, so that the bench measures the working tree's code.
#   bench/new-key-limit/run.sh [--threads 1,4] [--rounds 5] [--warmup-seconds 3] [--seconds 3]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$ROOT/target/new-key-limit                  # git-ignored; the root's mvn clean removes it
mkdir -p "$WORK"
cd "$ROOT"
mvn -B -q install -DskipTests -Dspotless.check.skip=true -pl ecommerce-app/idempotency -am \
  >"$WORK/build.log" 2>&1 || { echo "library build failed: $WORK/build.log" >&2; exit 1; }
mvn -B -q -f "$HERE/pom.xml" compile dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" \
  >>"$WORK/build.log" 2>&1 || { echo "bench build failed: $WORK/build.log" >&2; exit 1; }
RESULT=$WORK/result-$(date -u +%Y%m%dT%H%M%SZ).md
java -cp "$WORK/build/classes:$(cat "$WORK/cp.txt")" \
  com.banhang.idempotency.internal.NewKeyLimitBench --sql "$ROOT/sql" "$@" 2>"$WORK/bench.log" \
  | tee "$RESULT"
echo "written: $RESULT" >&2

#!/usr/bin/env bash
# After a build: the slowest test classes across every module's surefire and failsafe reports,
# with their module, as docs/testing.md ("Build time") lists them.
#
#   bash scripts/slowest-tests.sh [COUNT [REPOSITORY]]   (10, and this script's repository)
set -euo pipefail
count=${1:-10}
cd "${2:-$(dirname "$0")/..}"
for report in ecommerce-app/*/target/*-reports/TEST-*.xml ecommerce-app/*/target/conformance-*/TEST-*.xml; do
  [ -e "$report" ] || continue
  module=${report#ecommerce-app/}
  module=${module%%/*}
  # The first <testsuite ...> element carries the class's name and its time in seconds.
  suite=$(grep -o -m1 '<testsuite [^>]*>' "$report")
  name=$(sed -E 's/.* name="([^"]*)".*/\1/' <<<"$suite")
  seconds=$(sed -E 's/.* time="([^"]*)".*/\1/' <<<"$suite")
  printf '%8.1f s  %-16s %s\n' "$seconds" "$module" "${name##*.}"
done | sort -rn | head -n "$count"

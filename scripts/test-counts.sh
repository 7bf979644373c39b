#!/usr/bin/env bash
# After a build: how many tests each module ran, from its surefire and failsafe reports, as the
# table of docs/testing.md ("Build time") lists them. Run it after `bash scripts/verify.sh` (or any
# `mvn verify`); a module without reports is left out.
#
#   bash scripts/test-counts.sh [REPOSITORY]   (this script's repository by default)
#
# Per module: the unit tests (surefire: target/surefire-reports), the integration tests (failsafe:
# target/failsafe-reports) and the conformance kit's suite where a module runs it (its own reports
# folders, target/conformance-*), each as "run (skipped)". Failures and errors are counted in run,
# and named in a last column when there are any.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# Counts the test cases of the given reports, the skipped ones, and those that failed or erred.
# Counted by <testcase> rather than read from <testsuite tests="...">: a class whose tests are all
# in @Nested classes reports tests="0" there, with its cases listed below it.
totals() {
  local reports=()
  for report in "$@"; do
    [ -e "$report" ] && reports+=("$report")
  done
  if [ ${#reports[@]} -eq 0 ]; then
    printf '0 0 0'
    return
  fi
  awk '
    /<testcase[ >]/ { tests++ }
    /<skipped[ \/>]/ { skipped++ }
    /<(failure|error)[ \/>]/ { failed++ }
    END { printf "%d %d %d", tests, skipped, failed }
  ' "${reports[@]}"
}

cell() {
  local tests=$1 skipped=$2
  if [ "$tests" -eq 0 ]; then
    printf ''
  elif [ "$skipped" -eq 0 ]; then
    printf '%s' "$tests"
  else
    printf '%s (%s skipped)' "$tests" "$skipped"
  fi
}

printf '| module | unit (surefire) | integration (failsafe) | conformance kit suite |\n'
printf '|---|---|---|---|\n'
for module_dir in ecommerce-app/*/; do
  module=$(basename "$module_dir")
  read -r unit unit_skipped unit_failed <<<"$(totals "$module_dir"target/surefire-reports/TEST-*.xml)"
  read -r integration integration_skipped integration_failed <<<"$(totals "$module_dir"target/failsafe-reports/TEST-*.xml)"
  kit=""
  kit_failed=0
  for folder in "$module_dir"target/conformance-*/; do
    [ -d "$folder" ] || continue
    read -r kit_run kit_skipped kit_run_failed <<<"$(totals "$folder"TEST-*.xml)"
    kit_failed=$((kit_failed + kit_run_failed))
    kit="${kit:+$kit + }$(cell "$kit_run" "$kit_skipped")"
  done
  if [ "$unit" -eq 0 ] && [ "$integration" -eq 0 ] && [ -z "$kit" ]; then
    continue
  fi
  line="| \`$module\` | $(cell "$unit" "$unit_skipped") | $(cell "$integration" "$integration_skipped") | $kit |"
  failed=$((unit_failed + integration_failed + kit_failed))
  if [ "$failed" -gt 0 ]; then
    line="$line $failed failed or in error"
  fi
  printf '%s\n' "$line"
done

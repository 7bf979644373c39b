#!/usr/bin/env bash
# Copies the pictures the browser test took (OperatorConsoleBrowserIT, in it-h2) to where the README
# and docs/operations.md show them, so that every picture in the docs is one the test produced.
# Run after the test command (or `mvn -B verify -pl ecommerce-app/it-h2 -am`), then commit.
set -euo pipefail
cd "$(dirname "$0")/.."
shots=ecommerce-app/it-h2/target/screenshots
for pair in 03-stuck.png:stuck-operations.png 07-payment.png:payment-page.png \
  07b-payment-timeline.png:payment-timeline.png 08-ask-the-gateway.png:ask-the-gateway.png; do
  from="$shots/${pair%%:*}"
  to="docs/${pair##*:}"
  if [[ ! -f "$from" ]]; then
    echo "missing $from: run the browser test first" >&2
    exit 1
  fi
  cp "$from" "$to"
  echo "$from -> $to"
done

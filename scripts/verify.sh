#!/usr/bin/env bash
# The README's one command to run every test, on a machine with a JDK 17, Maven and Debian's
# package manager: it installs from Debian's packages the programs the tests drive and the machine
# lacks, then runs every test (mvn -B -T 2 verify, two modules at a time). Arguments are passed on
# to Maven.
#
# What the tests drive outside the JVM (docs/testing.md, "What the build needs"):
#   chromium, chromium-driver  the operator console's browser test (it-h2)
#   procps                     ps(1), kill(1): Liberty's bin/server uses ps, and the PostgreSQL
#                              suite stops and freezes its database with kill
#   util-linux                 unshare(1): PostgreSQL refuses to run as root, so as root it runs
#                              in a user namespace of its own
#   haproxy                    the load balancer in front of three shop nodes (it-postgresql's
#                              LoadBalancedStormIT), which the test runs in the foreground itself;
#                              the package's own service is not used
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[verify] %s\n' "$*"; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
{ type -P ps && type -P kill; } >/dev/null || missing+=(procps)
type -P unshare >/dev/null || missing+=(util-linux)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)

if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    as_root=(sudo)
  fi
  say "installing from Debian's packages: ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages the tests drive are installed (chromium, chromium-driver, procps, util-linux, haproxy)"
fi

# Two modules at a time (-T 2): the suites spend most of their time waiting on servers, storms and
# browsers, so it-h2 and it-postgresql, whose ports and databases are apart, overlap well even on
# two cores (docs/testing.md, "Build time"). Each line of Maven's log carries the time of day.
say "running every test: mvn -B -T 2 verify $*"
exec mvn -B -T 2 \
  -Dorg.slf4j.simpleLogger.showDateTime=true -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss \
  verify "$@"

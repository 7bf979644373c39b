#!/usr/bin/env bash
# The project's source files whose code ran, from a JaCoCo exec file: every class of
# ecommerce-app/*/target/classes with at least one probe hit (jacococli execinfo), grouped by its
# source file (the class file's SourceFile, i.e. the outer class's .java under src/main/java) and by
# module, with counts per module, a total, and each file marked data (every class of it that ran is
# a record, an enum or an exception) or behaviour. The gateway sandbox (com.banhang.gateway.sandbox,
# a stand-in for the card processor that the development profile runs in the shop's JVM) is left
# out and only counted. Classes that have no class file in target/classes (made at run time, e.g.
# CDI proxies) are left out and listed.
#
#   bash bench/payment-path/list-files.sh EXEC_FILE [JACOCO_CLI_JAR]
#
# Needs the modules' target/classes of the build that ran (run.sh builds them) and a JDK (javap).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXEC=${1:?usage: list-files.sh EXEC_FILE [JACOCO_CLI_JAR]}
CLI=${2:-$ROOT/target/payment-path/jacoco/org.jacoco.cli-0.8.15-nodeps.jar}
SANDBOX=com/banhang/gateway/sandbox/
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT"

# Probes hit per class: "name hits probes" (a class loaded twice is listed once, with its most hits).
java -jar "$CLI" execinfo "$EXEC" >"$TMP/execinfo.txt"
awk '$3 == "of" && $2 > 0 { print $5, $2, $4 }' "$TMP/execinfo.txt" | sort -k1,1 -k2,2nr |
  awk '$1 != last { print; last = $1 }' >"$TMP/hits.txt"

# Every production class of the project: "name module" from the class files, and what javap says
# of each: "name source-file keyword superclass".
find ecommerce-app/*/target/classes -name '*.class' | sort >"$TMP/classfiles.txt"
[ -s "$TMP/classfiles.txt" ] || { echo "no ecommerce-app/*/target/classes: build first" >&2; exit 1; }
sed 's#^ecommerce-app/\([^/]*\)/target/classes/\(.*\)\.class$#\2 \1#' "$TMP/classfiles.txt" >"$TMP/modules.txt"
tr '\n' '\0' <"$TMP/classfiles.txt" | xargs -0 javap >"$TMP/javap.txt"
awk '
  /^Compiled from "/ { src = $3; gsub(/"/, "", src); want = 1; next }
  want && /[{]$/ {
    line = $0
    while (line ~ /<[^<>]*>/) gsub(/<[^<>]*>/, "", line)
    n = split(line, w, /[ ,]+/)
    kind = ""; name = ""; super = "-"
    for (i = 1; i <= n; i++) {
      if (kind == "" && (w[i] == "class" || w[i] == "interface")) { kind = w[i]; name = w[i + 1] }
      else if (kind == "class" && w[i] == "extends") { super = w[i + 1]; break }
    }
    gsub(/\./, "/", name); gsub(/\./, "/", super)
    print name, src, kind, super
    want = 0
  }' "$TMP/javap.txt" >"$TMP/types.txt"

# One line per hit class: module source-path kind name hits probes (or a note for the left-out).
awk -v sandbox="$SANDBOX" '
  FILENAME == ARGV[1] { module[$1] = $2; next }
  FILENAME == ARGV[2] { src[$1] = $2; kw[$1] = $3; sup[$1] = $4; next }
  function kind(c,   s, k) {
    if (kw[c] == "interface") return "interface"
    s = sup[c]
    if (s == "java/lang/Record") return "record"
    if (s == "java/lang/Enum") return "enum"
    for (k = 0; k < 20 && s != ""; k++) {
      if (s ~ /(Exception|Error|Throwable)$/) return "exception"
      if (!(s in sup)) break
      s = sup[s]
    }
    return "class"
  }
  {
    c = $1
    if (index(c, sandbox) == 1) { print "SANDBOX", c, $2, $3; next }
    if (!(c in module) || !(c in src)) { print "GENERATED", c, $2, $3; next }
    pkg = c; sub(/\/[^\/]*$/, "", pkg)
    print "FILE", module[c], "ecommerce-app/" module[c] "/src/main/java/" pkg "/" src[c], kind(c), c, $2, $3
  }' "$TMP/modules.txt" "$TMP/types.txt" "$TMP/hits.txt" >"$TMP/classes.txt"

# Every file named must be a source file of the checkout.
awk '$1 == "FILE" { print $3 }' "$TMP/classes.txt" | sort -u | while read -r f; do
  [ -f "$f" ] || { echo "no source file $f for a class that ran" >&2; exit 1; }
done

# The listing.
awk '
  $1 == "SANDBOX" { sandbox++; next }
  $1 == "GENERATED" { generated[++ngen] = $2 " (" $3 " of " $4 " probes)"; next }
  {
    m = $2; f = $3; k = $4; c = $5
    if (!(f in fmod)) { fmod[f] = m; files[m] = files[m] " " f; nfiles[m]++; total++; data[f] = 1 }
    if (k != "record" && k != "enum" && k != "exception") data[f] = 0
    n = c; sub(/.*\//, "", n)
    fclasses[f] = fclasses[f] (fclasses[f] == "" ? "" : ", ") n " " k " " $6 "/" $7
    hit[f] += $6; probes[f] += $7
    if (!(m in seen)) { seen[m] = 1; mods[++nmods] = m }
  }
  END {
    for (i = 1; i <= nmods; i++) {
      m = mods[i]; nd = 0
      split(substr(files[m], 2), fl, " ")
      for (j = 1; j <= nfiles[m]; j++) nd += data[fl[j]]
      printf "## %s: %d files (%d behaviour, %d data)\n\n", m, nfiles[m], nfiles[m] - nd, nd
      for (j = 1; j <= nfiles[m]; j++) {
        f = fl[j]; short = f; sub(/.*\/src\/main\/java\//, "", short)
        printf "  %-9s %s  [%s]\n", (data[f] ? "data" : "behaviour"), short, fclasses[f]
      }
      printf "\n"
      per = per sprintf("%s%s %d", (per == "" ? "" : ", "), m, nfiles[m])
      alldata += nd
    }
    printf "## Total: %d files in %d modules (%s); %d behaviour, %d data (records, enums, exceptions)\n", total, nmods, per, total - alldata, alldata
    printf "\nLeft out: %d classes of the gateway sandbox (com.banhang.gateway.sandbox, the card-processor stand-in running in the same JVM)", sandbox + 0
    printf "; %d classes made at run time (no class file in target/classes)%s\n", ngen + 0, (ngen ? ":" : ".")
    for (i = 1; i <= ngen; i++) printf "  %s\n", generated[i]
  }' "$TMP/classes.txt"

#!/bin/bash
# parsers_xml.sh - throughput of the XML reader and the shell tokenizer on real
# manifests from ../shared/corpora, in process, side by side in one run.
#
#   bash bench/parsers_xml.sh [RUNS]      (default 5 runs; prints medians and ratios)
#
# XML: every real pom.xml / *.csproj / packages.config, each parsed repeatedly
# (about 4 MB in all), and their root elements wrapped in one 4 MB <corpus>
# document; prc_xml_parse (tree + limits) beside expat alone with no handlers.
# Shell: every real PKGBUILD tokenized repeatedly (about 4 MB in all), and one
# 4 MB concatenation beside `bash -n` (bash's own parser, nothing executed).
# Times are CPU time (user + system) of the measuring process, because the
# machine is shared and wall time mostly measures the neighbours.
# Never a timed assertion: numbers only.
set -u
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-../shared/corpora}
RUNS=${1:-5}
CHECK=build/helpers/xst_check
if [ ! -x "$CHECK" ]; then
        # Benchmarks use the optimized test build (no sanitizers).
        CHECK=build/test/helpers/xst_check
fi
[ -x "$CHECK" ] || { echo "build first: make testbuild"; exit 1; }
[ -d "$CORPORA/manifests" ] || { echo "corpora absent at $CORPORA: nothing to measure"; exit 0; }
TMPD=$(mktemp -d /tmp/prc-bench-xml-XXXXXX)
trap 'rm -rf "$TMPD"' EXIT
/usr/bin/python3 - "$CORPORA" "$TMPD" <<'PY'
import csv, re, sys
c, t = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{c}/manifests/INDEX.tsv"), delimiter="\t"))
def files(kinds):
    for r in rows:
        if r["kind"] in kinds:
            o, n = r["repo"].split("/", 1)
            yield f"{c}/manifests/{r['ecosystem']}/{o}__{n}/{r['path']}"
parts = []
for p in files({"pom.xml", "csproj", "packages.config"}):
    s = open(p, "rb").read().decode("utf-8")
    s = s.lstrip("\ufeff")
    s = re.sub(r"^\s*<\?xml[^>]*\?>", "", s)
    parts.append(s)
one = "".join(parts)
reps = max(1, (4 << 20) // len(one.encode()))
open(f"{t}/corpus.xml", "w").write("<corpus>" + one * reps + "</corpus>\n")
open(f"{t}/xml.list", "w").write("".join(p + "\n" for p in files({"pom.xml", "csproj", "packages.config"})))
open(f"{t}/sh.list", "w").write("".join(p + "\n" for p in files({"PKGBUILD"})))
sh = "".join(open(p).read() + "\n" for p in files({"PKGBUILD"}))
open(f"{t}/corpus.PKGBUILD", "w").write(sh * max(1, (4 << 20) // len(sh.encode())))
PY
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# MODE REPEAT FILE... -> MB/s (bytes parsed / CPU seconds), one measurement
mbs() { local mode=$1 rep=$2; shift 2; "$CHECK" bench "$mode" "$rep" "$@" | awk '{printf "%.1f\n", $1 / $2 / 1e6}'; }
bash_mbs() {
        local b t
        b=$(stat -c %s "$1")
        /usr/bin/time -o "$TMPD/time" -f '%U %S' bash -n "$1" 2>/dev/null
        t=$(tail -n 1 "$TMPD/time" | awk '{print $1 + $2}')
        awk -v b="$b" -v t="$t" 'BEGIN {if (t <= 0) t = 0.01; printf "%.1f\n", b / t / 1e6}'
}
mapfile -t XMLF < "$TMPD/xml.list"
mapfile -t SHF < "$TMPD/sh.list"
xr=$(( (4 << 20) / $(cat "${XMLF[@]}" | wc -c) + 1 ))
sr=$(( (4 << 20) / $(cat "${SHF[@]}" | wc -c) + 1 ))
declare -A R
for i in $(seq "$RUNS"); do
        R[xml_f]+="$(mbs xml "$xr" "${XMLF[@]}") "
        R[expat_f]+="$(mbs expat "$xr" "${XMLF[@]}") "
        R[xml_1]+="$(mbs xml 1 "$TMPD/corpus.xml") "
        R[expat_1]+="$(mbs expat 1 "$TMPD/corpus.xml") "
        R[sh_f]+="$(mbs shell "$sr" "${SHF[@]}") "
        R[sh_1]+="$(mbs shell 1 "$TMPD/corpus.PKGBUILD") "
        R[bash_1]+="$(bash_mbs "$TMPD/corpus.PKGBUILD") "
done
m() { tr ' ' '\n' <<<"${R[$1]}" | grep . | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
printf '%-58s %8s %8s %6s\n' "input" "prc MB/s" "base" "ratio"
printf '%-58s %8.1f %8.1f %6s\n' "XML: ${#XMLF[@]} real manifests x $xr (prc_xml_parse | expat alone)" \
        "$(m xml_f)" "$(m expat_f)" "$(ratio "$(m xml_f)" "$(m expat_f)")"
printf '%-58s %8.1f %8.1f %6s\n' "XML: one 4 MB <corpus> of them (prc_xml_parse | expat alone)" \
        "$(m xml_1)" "$(m expat_1)" "$(ratio "$(m xml_1)" "$(m expat_1)")"
printf '%-58s %8.1f %8s %6s\n' "shell: ${#SHF[@]} real PKGBUILDs x $sr (prc_shell_tokenize)" "$(m sh_f)" "-" "-"
printf '%-58s %8.1f %8.1f %6s\n' "shell: one 4 MB concatenation (prc_shell_tokenize | bash -n)" \
        "$(m sh_1)" "$(m bash_1)" "$(ratio "$(m sh_1)" "$(m bash_1)")"
echo "(medians of $RUNS runs; CPU time; $CHECK)"

#!/bin/bash
# xml.sh - conformance and attack runner for the XML reader, the shell
# tokenizer and the archive walker (issue 5), reading ../shared/corpora in place.
#
#   bash tests/conformance/xml.sh        prints per-suite counts, then "N passed, N failed"
#
# Suites: the W3C XML Conformance Suite (unzipped into a temporary directory,
# never into the repo), libxml2's and defusedxml's inputs, the generated attack
# corpus (xml, utf8/*.xml, shell, tar, gzip) against the expected class in
# tests/conformance/xml-attacks.tsv, and every real pom.xml / csproj /
# packages.config / PKGBUILD / .SRCINFO of the manifests corpus (all must parse).
# Cases refused on purpose (any DOCTYPE, xml-encoding: an encoding expat does not
# decode itself, or UTF-16 without a byte order mark) are counted as
# policy-rejected and reported, not failed.  XML 1.1 cases are skipped and counted.
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
CORPORA=${PRC_CORPORA:-$ROOT/../shared/corpora}
CHECK=${XST_CHECK:-$ROOT/build/asan/helpers/xst_check}
if [ ! -d "$CORPORA/parsers" ]; then
        if [ "${CI:-}" = "true" ]; then
                echo "corpora missing at $CORPORA (required in CI)"
                echo "0 passed, 1 failed"
                exit 1
        fi
        echo "corpora are absent ($CORPORA): XML, shell and archive conformance NOT run"
        echo "0 passed, 0 failed"
        exit 0
fi
if [ ! -x "$CHECK" ]; then
        echo "missing $CHECK (run make asan)"
        echo "0 passed, 1 failed"
        exit 1
fi
TMPD=$(mktemp -d /tmp/prc-xmlconf-XXXXXX)
trap 'rm -rf "$TMPD"' EXIT
if ! unzip -q "$CORPORA/parsers/xml-w3c-xmlts/xmlts20130923.zip" -d "$TMPD"; then
        echo "cannot unzip the W3C archive"
        echo "0 passed, 1 failed"
        exit 1
fi
export CORPORA CHECK TMPD ROOT
exec /usr/bin/python3 - <<'PY'
import csv, os, re, subprocess, sys

C, CHECK, T, ROOT = os.environ["CORPORA"], os.environ["CHECK"], os.environ["TMPD"], os.environ["ROOT"]

def run(mode, paths):
    """Batch-run the helper; returns {path: class or 'ok'}."""
    out = subprocess.run([CHECK, mode], input="\n".join(paths) + "\n", capture_output=True, text=True,
                         timeout=600).stdout
    res = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "ok":
            res[f[1]] = "ok" if len(f) < 3 or f[2] == "-" else "ok:" + f[2]
        elif f[0] == "err":
            res[f[3]] = f[1]
    return res

total_p = total_f = 0
def report(name, p, f, extra=""):
    global total_p, total_f
    total_p += p
    total_f += f
    print(f"{name}: {p} passed, {f} failed{extra}")

POLICY = {"xml-doctype", "xml-encoding"}

def policy(cls, path):
    # Issue 16: the reader names every encoding it refuses (xml-encoding), so an
    # invalid-utf8 or nul-byte refusal of a file in another encoding is a failure.
    return cls if cls in POLICY else None

# --- W3C ---
known = {}
for line in open(f"{ROOT}/tests/conformance/xml-w3c-known.tsv"):
    if line.strip() and not line.startswith("#"):
        i, why = line.rstrip("\n").split("\t", 1)
        known[i] = why
rows = list(csv.DictReader(open(f"{C}/parsers/xml-w3c-xmlts/index.tsv"), delimiter="\t"))
base = f"{T}/xmlconf"
paths = [f"{base}/{r['path']}" for r in rows]
res = run("xml", paths)
p = f = skipped = either = listed = 0
pol = {}
fails = []
for r, path in zip(rows, paths):
    got = res.get(path, "missing")
    if r["id"] in known:
        # Listed with its reason; it must still fail the way the list says, or the list is stale.
        if got == "ok":
            f += 1
            fails.append((r["id"], "listed in xml-w3c-known.tsv but now accepted: update the list"))
        else:
            listed += 1
        continue
    if r["version"] == "1.1":
        skipped += 1
        continue
    if r["type"] == "error":
        either += 1
        p += 1
    elif r["type"] == "not-wf":
        if got != "ok":
            p += 1
        else:
            f += 1
            fails.append((r["id"], "not-wf accepted"))
    else:
        pc = policy(got, path) if got != "ok" else None
        if got == "ok":
            p += 1
        elif pc:
            pol[pc] = pol.get(pc, 0) + 1
        else:
            f += 1
            fails.append((r["id"], f"{r['type']} rejected: {got}"))
for i, why in fails[:40]:
    print(f"FAIL w3c {i}: {why}")
report("w3c", p, f, f" (policy-rejected: {', '.join(f'{k} {v}' for k, v in sorted(pol.items())) or 'none'};"
       f" xml-1.1 skipped {skipped}; error-type either-way {either}; known, listed with reasons {listed})")

# --- libxml2 ---
rows = list(csv.DictReader(open(f"{C}/parsers/xml-libxml2/index.tsv"), delimiter="\t"))
paths = [f"{C}/parsers/xml-libxml2/{r['path']}" for r in rows]
rec = sorted(f"{C}/parsers/xml-libxml2/test/recurse/{n}" for n in os.listdir(f"{C}/parsers/xml-libxml2/test/recurse")
             if n.endswith(".xml"))
res = run("xml", paths + rec)
p = f = 0
pol = {}
for r, path in zip(rows, paths):
    got = res.get(path, "missing")
    if r["group"] == "errors" and r["expat_wf"] == "not-wf":
        ok = got != "ok"
    elif r["group"] == "root" and r["expat_wf"] == "wf":
        pc = policy(got, path) if got != "ok" else None
        if pc:
            pol[pc] = pol.get(pc, 0) + 1
            continue
        ok = got == "ok"
    else:
        ok = got != "missing"      # either verdict; it must terminate cleanly
    if ok:
        p += 1
    else:
        f += 1
        print(f"FAIL libxml2 {r['path']}: got {got}")
for path in rec:
    got = res.get(path, "missing")
    name = os.path.basename(path)
    if name.startswith("lol"):
        ok = got != "ok"
    else:
        pc = policy(got, path) if got != "ok" else None
        if pc:
            pol[pc] = pol.get(pc, 0) + 1
            continue
        ok = got == "ok"
    if ok:
        p += 1
    else:
        f += 1
        print(f"FAIL libxml2 recurse/{name}: got {got}")
report("libxml2", p, f, f" (policy-rejected: {', '.join(f'{k} {v}' for k, v in sorted(pol.items())) or 'none'})")

# --- defusedxml: everything with a DTD rejected; the rest parses as plain elements ---
d = f"{C}/parsers/xml-defusedxml/xmltestdata"
paths = sorted(f"{d}/{n}" for n in os.listdir(d))
res = run("xml", paths)
p = f = 0
for path in paths:
    got = res.get(path, "missing")
    has_dtd = b"<!DOCTYPE" in open(path, "rb").read()
    ok = (got != "ok") if has_dtd else (got == "ok")
    if ok:
        p += 1
    else:
        f += 1
        print(f"FAIL defusedxml {os.path.basename(path)}: got {got}")
report("defusedxml", p, f)

# --- attacks: the exact class prc gives each input (expectations file) ---
exp = {}
for line in open(f"{ROOT}/tests/conformance/xml-attacks.tsv"):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    path, mode, want = line.split("\t")[:3]
    exp[path] = (mode, want)
p = f = 0
by_mode = {}
for path, (mode, want) in exp.items():
    by_mode.setdefault(mode, []).append(path)
for mode, lst in sorted(by_mode.items()):
    res = run(mode, [f"{C}/parsers/attacks/{x}" for x in lst])
    for x in lst:
        got = res.get(f"{C}/parsers/attacks/{x}", "missing")
        if got == exp[x][1]:
            p += 1
        else:
            f += 1
            print(f"FAIL attack {x}: got {got}, want {exp[x][1]}")
# Every attack input of these formats must have an expectation (none skipped silently).
idx = list(csv.DictReader(open(f"{C}/parsers/attacks/INDEX.tsv"), delimiter="\t"))
for r in idx:
    if (r["format"] in ("xml", "shell", "srcinfo", "tar", "gzip", "zlib") or r["path"].endswith(".xml")) and r["path"] not in exp:
        f += 1
        print(f"FAIL attack {r['path']}: no expectation in xml-attacks.tsv")
report("attacks", p, f)

# --- real manifests: every file must parse ---
kinds = {"pom.xml": "xml", "csproj": "xml", "packages.config": "xml", "PKGBUILD": "shell", ".SRCINFO": "srcinfo"}
rows = list(csv.DictReader(open(f"{C}/manifests/INDEX.tsv"), delimiter="\t"))
p = f = 0
for kind, mode in kinds.items():
    paths = []
    for r in rows:
        if r["kind"] == kind:
            owner, repo = r["repo"].split("/", 1)
            paths.append(f"{C}/manifests/{r['ecosystem']}/{owner}__{repo}/{r['path']}")
    res = run(mode, paths)
    for path in paths:
        if res.get(path) == "ok":
            p += 1
        else:
            f += 1
            print(f"FAIL manifest {path}: {res.get(path, 'missing')}")
report("manifests", p, f)

print(f"{total_p} passed, {total_f} failed")
sys.exit(1 if total_f else 0)
PY

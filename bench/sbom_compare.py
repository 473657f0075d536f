#!/usr/bin/python3
"""sbom_compare.py DIR [DETAILS] - the components three CycloneDX SBOMs of
one repository find, and every disagreement, for every repository under DIR
(DIR/REPO/{prc,trivy,cdxgen}.json, as bench/sbom_compare.sh writes them).

A component is (purl type, name, version) from its purl: percent-decoding
undone, namespace and name joined by "/" and lower-cased (tools disagree on
case: prc lower-cases Go module paths and composer names as purl-spec says,
Trivy keeps them), PyPI names in PEP 503 form, a leading "v" of a Go version
dropped (Trivy writes 1.2.3 where the purl spec and prc write v1.2.3), an
action's type "github" (cdxgen) read as "githubactions" (prc, as GitHub's
own SBOM export spells it);
qualifiers and subpath are ignored.  Components without a version (prc lists
a manifest's ranges, which are not versions, without one) and without a purl
(prc names a workspace member or a git, path or URL source "prc:...") are
counted apart and not compared.

Prints per repository the count each tool finds and the number of
disagreements, then totals; DETAILS gets every disagreement, one per line:
"REPO<TAB>TYPE/NAME@VERSION<TAB>found by<TAB>missed by".
"""
import collections
import json
import os
import re
import sys
import urllib.parse


def key_of(purl):
    if not purl or not purl.startswith("pkg:"):
        return None
    p = purl[4:].split("#", 1)[0].split("?", 1)[0]
    typ, _, rest = p.partition("/")
    ver = None
    at = rest.rfind("@")
    if at > 0:
        rest, ver = rest[:at], urllib.parse.unquote(rest[at + 1:])
    name = "/".join(urllib.parse.unquote(s) for s in rest.split("/")).lower()
    typ = typ.lower()
    if typ == "github":
        typ = "githubactions"   # cdxgen spells a workflow's action pkg:github/, prc (as GitHub's own SBOMs) githubactions
    if typ == "pypi":
        name = re.sub(r"[-_.]+", "-", name)
    if typ == "golang" and ver and ver.startswith("v"):
        ver = ver[1:]
    return (typ, name, ver)


def components(path):
    try:
        bom = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError):
        return None
    out = set()
    for c in bom.get("components", []):
        k = key_of(c.get("purl"))
        out.add(k if k is not None else ("(no purl)", c.get("name"), None))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    details = open(sys.argv[2], "w", encoding="utf-8") if len(sys.argv) > 2 else None
    tools = ("prc", "trivy", "cdxgen")
    repos = sorted(os.path.relpath(d, root) for d, _, files in os.walk(root) if "prc.json" in files)
    print(f"{'repository':44} " + " ".join(f"{t + ' (apart)':>16}" for t in tools) + f" {'disagree':>9}")
    tot = collections.Counter()
    for repo in repos:
        have = {t: components(os.path.join(root, repo, t + ".json")) for t in tools}
        if any(v is None for v in have.values()):
            print(f"{repo:44} (a tool wrote no SBOM: {', '.join(t for t in tools if have[t] is None)})")
            continue
        ver = {t: {k for k in have[t] if k[2] and k[0] != "(no purl)"} for t in tools}
        allk = set().union(*ver.values())
        dis = [k for k in sorted(allk) if len({t for t in tools if k in ver[t]}) < len(tools)]
        cells = " ".join(f"{len(ver[t]):>8} ({len(have[t]) - len(ver[t]):>4})" for t in tools)
        print(f"{repo:44} {cells} {len(dis):>9}")
        for t in tools:
            tot[t] += len(ver[t])
        tot["dis"] += len(dis)
        for k in dis:
            found = [t for t in tools if k in ver[t]]
            missed = [t for t in tools if k not in ver[t]]
            if details:
                details.write(f"{repo}\t{k[0]}/{k[1]}@{k[2]}\t{','.join(found)}\t{','.join(missed)}\n")
    print(f"{'total (with a version, per repository)':44} " + " ".join(f"{tot[t]:>16}" for t in tools) +
          f" {tot['dis']:>9}")


if __name__ == "__main__":
    main()

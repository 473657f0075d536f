# extract_cgc.py - prc's Rust, Go and PHP extractors against an independent
# reading of the same files, done here with Python's own tomllib and json and a
# plain Python reading of go.mod / go.sum (no prc code involved).
#
#   /usr/bin/python3 extract_cgc.py XDUMP FILE...
#
# For each file, the multiset of components each side finds must be equal:
#   Cargo.lock     (name, version) of every [[package]] (and [root])
#   Cargo.toml     (crate, requirement, scope, group) of every dependency table
#   go.mod         (module, version, direct) of every require
#   go.sum         (module, version, stated-only-by-its-go.mod-hash)
#   go.work        the used directories
#   composer.json  (name, constraint, scope) of require and require-dev
#   composer.lock  (name, version, scope) of packages and packages-dev
# and every dependency's line must be a line of the file that names it.  For
# Cargo.lock and composer.lock the edges too: ("edge", from, to) per
# (name, version) pair, Cargo's "name [version [(source)]]" strings and
# composer's "require" (to the package of that name, else the one that
# replaces or provides it; platform requirements are none).
# EXCEPTIONS lists justified differences ("path suffix" -> reason); a listed
# file that agrees is reported so the list stays honest.  Ends with
# "N passed, N failed".
import collections
import json
import os
import subprocess
import sys
import tomllib

# Files where prc and this reading knowingly differ, with the reason.  None today.
EXCEPTIONS = {}


def cargo_lock(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    pkgs = ([doc["root"]] if "root" in doc else []) + doc.get("package", [])
    return collections.Counter((p["name"], p["version"]) for p in pkgs)


def cargo_toml(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    kinds = {"dependencies": "runtime", "dev-dependencies": "dev", "dev_dependencies": "dev",
             "build-dependencies": "build", "build_dependencies": "build"}
    tables = [(doc, None)] + [(t, cfg) for cfg, t in doc.get("target", {}).items()]
    out = collections.Counter()

    def add(table, scope, group):
        for key, spec in table.items():
            if isinstance(spec, str):
                out[(key, spec, scope, group)] += 1
                continue
            sc = "optional" if scope == "runtime" and spec.get("optional") else scope
            out[(spec.get("package", key), spec.get("version"), sc, group)] += 1

    for t, cfg in tables:
        for k, scope in kinds.items():
            add(t.get(k, {}), scope, cfg)
    add(doc.get("workspace", {}).get("dependencies", {}), "runtime", "workspace")
    return out


def go_lines(path):
    """go.mod lines as (line number, fields, comment), blocks expanded: ("require", "a", "v1")."""
    block = None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            text, _, comment = raw.partition("//")
            fields = [x.strip('"`') for x in text.split()]
            if not fields:
                continue
            if block is not None:
                if fields == [")"]:
                    block = None
                    continue
                yield n, [block] + fields, comment.strip()
            elif len(fields) == 2 and fields[1] == "(":
                block = fields[0]
            else:
                yield n, fields, comment.strip()


def go_mod(path):
    out = collections.Counter()
    for _, f, comment in go_lines(path):
        if f[0] == "require":
            indirect = comment == "indirect" or comment.startswith("indirect;")
            out[(f[1], f[2], not indirect)] += 1
    return out


def go_work(path):
    return collections.Counter(f[1] for _, f, _ in go_lines(path) if f[0] == "use")


def go_sum(path):
    files, mods = set(), set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            f = line.split()
            if not f:
                continue
            if f[1].endswith("/go.mod"):
                mods.add((f[0], f[1][: -len("/go.mod")]))
            else:
                files.add((f[0], f[1]))
    return collections.Counter({(m, v, (m, v) not in files): 1 for m, v in files | mods})


def cargo_lock_edges(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    pkgs = ([doc["root"]] if "root" in doc else []) + doc.get("package", [])
    out = set()
    for p in pkgs:
        for dep in p.get("dependencies", []):
            parts = dep.split(" ", 2)
            hits = [q for q in pkgs if q["name"] == parts[0] and (len(parts) < 2 or q["version"] == parts[1])
                    and (len(parts) < 3 or "(" + q.get("source", "") + ")" == parts[2])]
            if len(hits) == 1:
                out.add(("edge", (p["name"], p["version"]), (hits[0]["name"], hits[0]["version"])))
    return collections.Counter({e: 1 for e in out if e[1] != e[2]})


def composer_lock_edges(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    pkgs = [p for key in ("packages", "packages-dev") for p in doc.get(key) or []]
    by = {p["name"].lower(): p for p in pkgs}
    for kind in ("replace", "provide"):
        for p in pkgs:
            for n in p.get(kind) or {}:
                by.setdefault(n.lower(), p)
    out = set()
    for p in pkgs:
        for n in p.get("require") or {}:
            t = by.get(n.lower())
            if "/" in n and t is not None:
                out.add(("edge", (p["name"], p["version"]), (t["name"], t["version"])))
    return collections.Counter({e: 1 for e in out if e[1] != e[2]})


def composer_json(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return collections.Counter((n, c, scope) for key, scope in (("require", "runtime"), ("require-dev", "dev"))
                               for n, c in doc.get(key, {}).items())


def composer_lock(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return collections.Counter((p["name"], p["version"], scope)
                               for key, scope in (("packages", "runtime"), ("packages-dev", "dev"))
                               for p in doc.get(key) or [])


def edges(md):
    deps = md["dependencies"]
    out = {("edge", (d["name"], d["resolved"]), (deps[i]["name"], deps[i]["resolved"]))
           for d in deps for i in d["depends_on"] or []}
    return collections.Counter({e: 1 for e in out if e[1] != e[2]})


def mine(fmt, md):
    deps = md["dependencies"]
    if fmt == "cargo-lock":
        return collections.Counter((d["name"], d["resolved"]) for d in deps) + edges(md)
    if fmt == "cargo-toml":
        return collections.Counter((d["name"], d["requirement"], d["scope"], d["group"]) for d in deps)
    if fmt == "go-mod":
        return collections.Counter((d["name"], d["requirement"], d["direct"]) for d in deps)
    if fmt == "go-sum":
        return collections.Counter((d["name"], d["resolved"], d["group"] == "go.mod") for d in deps)
    if fmt == "go-work":
        return collections.Counter(u["path"] for u in md["details"].get("use", []))
    if fmt == "composer-json":
        return collections.Counter((d["name"], d["requirement"], d["scope"]) for d in deps)
    return collections.Counter((d["name"], d["resolved"], d["scope"]) for d in deps) + edges(md)


READERS = {"cargo-lock": lambda p: cargo_lock(p) + cargo_lock_edges(p), "cargo-toml": cargo_toml, "go-mod": go_mod,
           "go-sum": go_sum, "go-work": go_work, "composer-json": composer_json,
           "composer-lock": lambda p: composer_lock(p) + composer_lock_edges(p)}
NAMES = {"Cargo.lock": "cargo-lock", "Cargo.toml": "cargo-toml", "go.mod": "go-mod", "go.sum": "go-sum",
         "go.work.sum": "go-sum", "go.work": "go-work", "composer.json": "composer-json",
         "composer.lock": "composer-lock"}


def line_problems(path, fmt, md):
    """Every stated line must name the dependency (Cargo.lock: the [[package]] header before its name)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    bad = []
    for d in md["dependencies"]:
        n = d["line"]
        if n is None:
            bad.append(f"{d['name']}: no line")
            continue
        text = lines[n - 1] + ("\n" + lines[n] if fmt == "cargo-lock" and n < len(lines) else "")
        if fmt == "cargo-lock" and not lines[n - 1].strip() in ("[[package]]", "[root]"):
            bad.append(f"{d['name']}: line {n} is not a [[package]] header")
        elif d["name"] not in text:
            bad.append(f"{d['name']}: line {n} does not name it: {lines[n - 1].strip()[:80]}")
    return bad


def main():
    xdump, files = sys.argv[1], sys.argv[2:]
    out = subprocess.run([xdump] + files, capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        p = line.split("\t")
        got[p[0]] = ("ok", json.loads(p[2])) if p[1] == "ok" else ("err", p[2] + " " + p[3] + " " + p[4])
    passed = failed = 0
    for f in files:
        fmt = NAMES[os.path.basename(f)]
        exc = next((r for s, r in EXCEPTIONS.items() if f.endswith(s)), None)
        problems = []
        if f not in got:
            problems.append("xdump printed nothing")
        elif got[f][0] == "err":
            problems.append("prc refused: " + got[f][1])
        else:
            md = got[f][1]
            if md["format"] != fmt:
                problems.append(f"format {md['format']}, want {fmt}")
            ref, have = READERS[fmt](f), mine(fmt, md)
            for k in sorted(ref - have, key=str)[:5]:
                problems.append(f"only the independent reading has {k}")
            for k in sorted(have - ref, key=str)[:5]:
                problems.append(f"only prc has {k}")
            if fmt != "go-work":
                problems += line_problems(f, fmt, md)[:5]
        if problems and exc is not None:
            print(f"ok {f} (known difference: {exc})")
            passed += 1
        elif problems:
            print(f"FAIL {f}")
            for p in problems:
                print(f"    {p}")
            failed += 1
        elif exc is not None:
            print(f"FAIL {f}: listed in EXCEPTIONS ({exc}) but agrees; remove it")
            failed += 1
        else:
            print(f"ok {f} ({sum(READERS[fmt](f).values())} components)")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

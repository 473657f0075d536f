#!/usr/bin/python3
"""extract_npm.py - prc's npm extractors against an independent reading.

For every file given, the component set prc yields (xdump, in process) is
compared with the set computed here with Python's own json module and
PyYAML (BaseLoader: every scalar a string, as written), and a small reader
of the classic yarn.lock format written here, never with prc:

  package-lock.json / npm-shrinkwrap.json  {(name, version)} of every entry
  yarn.lock (classic, berry)               {(name, version)} of every entry
  pnpm-lock.yaml (5, 6, 9)                 {(name, version)} of every package
  package.json                             {(name, specifier, scope)} of the
                                           four dependency objects

and, for every lockfile, the edge set {((name, version), (name, version))}
read here the way each package manager resolves a dependency: Node's
nearest node_modules folder (package-lock), the entry whose key holds the
descriptor (yarn), the packages key named by the version (pnpm).  An
optional or peer dependency the lockfile does not hold is no edge.

Usage: extract_npm.py XDUMP EXPECT FILE...   Ends with "N passed, N failed".
EXPECT lists "path-suffix<TAB>reason" lines: documented, justified
exceptions (a file whose mismatch is expected).
"""
import json
import subprocess
import sys

import yaml


def desc_name(d):
    at = d.find("@", 1)
    return d if at < 0 else d[:at]


def lock_npm(text):
    doc = json.loads(text)
    out = set()
    if doc.get("lockfileVersion", 0) >= 2:
        for key, e in doc["packages"].items():
            if key == "":
                continue
            if "node_modules/" not in key:
                out.add((e.get("name") or key, e.get("version")))
                continue
            name = key.rsplit("node_modules/", 1)[1]
            if e.get("link"):
                out.add((name, None))
            else:
                out.add((name, e.get("version")))
        return out

    def walk(deps):
        for name, e in deps.items():
            v = e.get("version")
            if v is not None and (v.startswith("git") or v.startswith("file:") or v.startswith("http")):
                v = None
            out.add((name, v))
            walk(e.get("dependencies", {}))
    walk(doc.get("dependencies", {}))
    return out


def yarn_classic(text):
    out, name, version = set(), None, None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            if name is not None:
                out.add((name, version))
            first = line.rstrip(":").split(",")[0].strip().strip('"')
            name, version = desc_name(first), None
        elif line.startswith("  version ") and not line.startswith("   "):
            version = line.split(" ", 3)[3].strip().strip('"')
    if name is not None:
        out.add((name, version))
    return out


def yarn_lock(text):
    if "__metadata:" not in text:
        return yarn_classic(text)
    doc = yaml.load(text, Loader=yaml.BaseLoader)
    return {(desc_name(e["resolution"]), e["version"]) for k, e in doc.items() if k != "__metadata"}


def pnpm_key(key, major):
    k = key[1:] if key.startswith("/") else key
    k = k.split("(")[0]
    if major == 5:
        k = k.split("_")[0]
        parts = k.split("/")
        n = 2 if k.startswith("@") else 1
        return "/".join(parts[:len(parts) - 1]) if len(parts) > n + 1 else "/".join(parts[:n]), parts[-1]
    at = k.find("@", 1)
    return k[:at], k[at + 1:]


def pnpm_lock(text):
    doc = yaml.load(text, Loader=yaml.BaseLoader)
    major = int(str(doc["lockfileVersion"]).split(".")[0])
    out = set()
    for key, e in (doc.get("packages") or {}).items():
        name, version = pnpm_key(key, major)
        out.add((e.get("name", name), e.get("version", version)))
    return out


def package_json(text):
    doc = json.loads(text)
    out = set()
    for key, scope in (("dependencies", "runtime"), ("devDependencies", "dev"),
                       ("optionalDependencies", "optional"), ("peerDependencies", "peer")):
        for name, spec in (doc.get(key) or {}).items():
            out.add((name, spec, scope))
    return out


def lock_npm_edges(text):
    doc = json.loads(text)
    rows = {}  # folder -> (name, version, entry)
    if doc.get("lockfileVersion", 0) >= 2:
        for key, e in doc["packages"].items():
            if key == "":
                continue
            if "node_modules/" not in key:
                rows[key] = (e.get("name") or key, e.get("version"), e)
            else:
                rows[key] = (key.rsplit("node_modules/", 1)[1], None if e.get("link") else e.get("version"), e)
    else:
        def walk(deps, parent):
            for name, e in deps.items():
                v = e.get("version")
                if v is not None and (v.startswith("git") or v.startswith("file:") or v.startswith("http")):
                    v = None
                folder = (parent + "/" if parent else "") + "node_modules/" + name
                rows[folder] = (name, v, e)
                walk(e.get("dependencies", {}), folder)
        walk(doc.get("dependencies", {}), "")

    def find(folder, name):
        while True:
            k = (folder + "/" if folder else "") + "node_modules/" + name
            if k in rows:
                return rows[k]
            if not folder:
                return None
            i = folder.rfind("node_modules/")
            folder = folder[:i - 1] if i > 0 else ""

    out = set()
    for folder, (n, v, e) in rows.items():
        if e.get("link"):
            t = rows.get(e.get("resolved"))
            if t:
                out.add(((n, v), (t[0], t[1])))
            continue
        if doc.get("lockfileVersion", 0) >= 2:
            lists = ["dependencies", "optionalDependencies", "peerDependencies"]
            if "node_modules/" not in folder:
                lists.append("devDependencies")
        else:
            lists = ["requires"]
        for l in lists:
            for name in (e.get(l) or {}):
                t = find(folder, name)
                if t:
                    out.add(((n, v), (t[0], t[1])))
    return {x for x in out if x[0] != x[1]}


def yarn_edges(text):
    entries = []  # (descriptors, name, version, [(dep, range, optional)])
    if "__metadata:" not in text:
        cur, block = None, None
        for line in text.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line.startswith(" "):
                descs = [d.strip().strip('"') for d in line.rstrip(":").split(",")]
                cur = [descs, desc_name(descs[0]), None, []]
                entries.append(cur)
            elif not line.startswith("   "):
                body = line.strip()
                block = body[:-1] if body.endswith(":") else None
                if body.startswith("version "):
                    cur[2] = body.split(" ", 1)[1].strip('"')
            elif block in ("dependencies", "optionalDependencies"):
                body = line.strip()
                if body.startswith('"'):
                    dep, rng = body[1:].split('"', 1)
                else:
                    dep, rng = body.split(" ", 1)
                cur[3].append((dep, rng.strip().strip('"'), block == "optionalDependencies"))
    else:
        doc = yaml.load(text, Loader=yaml.BaseLoader)
        for k, e in doc.items():
            if k == "__metadata":
                continue
            meta = e.get("dependenciesMeta") or {}
            deps = [(d, r, (meta.get(d) or {}).get("optional") == "true") for d, r in (e.get("dependencies") or {}).items()]
            entries.append([[d.strip() for d in k.split(",")], desc_name(e["resolution"]), e["version"], deps])
    by_desc = {d: (x[1], x[2]) for x in entries for d in x[0]}
    by_name = {}
    for x in entries:
        by_name.setdefault(x[1], []).append((x[1], x[2]))
    out = set()
    for _, n, v, deps in entries:
        for d, r, _opt in deps:
            t = by_desc.get(d + "@" + r) or by_desc.get(d + "@npm:" + r)
            if t is None and len(by_name.get(d, [])) == 1:
                t = by_name[d][0]  # a "resolutions" override rewrote the range
            if t:
                out.add(((n, v), t))
    return {x for x in out if x[0] != x[1]}


def pnpm_edges(text):
    doc = yaml.load(text, Loader=yaml.BaseLoader)
    major = int(str(doc["lockfileVersion"]).split(".")[0])
    pk = {}
    for key, e in (doc.get("packages") or {}).items():
        name, version = pnpm_key(key, major)
        pk[key] = (e.get("name", name), e.get("version", version))
    out = set()
    rows = doc.get("snapshots") if major == 9 else doc.get("packages")
    for key, e in (rows or {}).items():
        if major == 9:
            src = pk.get("%s@%s" % pnpm_key(key, 9))
        else:
            src = pk.get(key)
        if src is None:
            continue
        for l in ("dependencies", "optionalDependencies"):
            for name, ver in ((e or {}).get(l) or {}).items():
                if ver.startswith("link:"):
                    continue
                if major == 9:
                    bare = ver.split("(")[0]
                    t = pk.get(bare if "@" in bare[1:] else name + "@" + bare)
                elif ver.startswith("/"):
                    t = pk.get(ver)
                else:
                    t = pk.get("/" + name + ("/" if major == 5 else "@") + ver) or \
                        pk.get(name + ("/" if major == 5 else "@") + ver)
                if t:
                    out.add((src, t))
    return {x for x in out if x[0] != x[1]}


EDGES = {"package-lock.json": lock_npm_edges, "npm-shrinkwrap.json": lock_npm_edges, "yarn.lock": yarn_edges,
         "pnpm-lock.yaml": pnpm_edges}


def prc_edges(md):
    deps = md["dependencies"]
    out = set()
    for d in deps:
        for i in d["depends_on"] or []:
            t = deps[i]
            out.add(((d["name"], d["resolved"]), (t["name"], t["resolved"])))
    return {x for x in out if x[0] != x[1]}


READERS = {"package-lock.json": lock_npm, "npm-shrinkwrap.json": lock_npm, "yarn.lock": yarn_lock,
           "pnpm-lock.yaml": pnpm_lock, "package.json": package_json}


def prc_set(md, base):
    if base == "package.json":
        return {(d["name"], d["requirement"], d["scope"]) for d in md["dependencies"]}
    return {(d["name"], d["resolved"]) for d in md["dependencies"]}


def main():
    xdump, expect_file, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    expected = {}
    for line in open(expect_file, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            suffix, reason = line.rstrip("\n").split("\t", 1)
            expected[suffix] = reason
    passed = failed = 0
    for f in files:
        base = f.rsplit("/", 1)[-1]
        res = subprocess.run([xdump, f], capture_output=True, text=True)
        line = res.stdout.rstrip("\n")
        exc = next((r for s, r in expected.items() if f.endswith(s)), None)
        try:
            want = READERS[base](open(f, encoding="utf-8").read())
        except Exception as e:  # the independent reader refuses: prc must refuse too
            want = e
        parts = line.split("\t", 2)
        if len(parts) < 3:
            print(f"FAIL {f}: no xdump line ({res.stderr.strip()})")
            failed += 1
            continue
        if parts[1] != "ok":
            got = "refused: " + parts[2]
        else:
            got = prc_set(json.loads(parts[2]), base)
            if base in EDGES and not isinstance(want, Exception):
                # the edges too, as ("edge", from, to) members of both sets
                got |= {("edge",) + e for e in prc_edges(json.loads(parts[2]))}
                want = want | {("edge",) + e for e in EDGES[base](open(f, encoding="utf-8").read())}
        if isinstance(want, Exception) or not isinstance(got, set) or got != want:
            if exc is not None:
                passed += 1
                continue
            if isinstance(got, set) and isinstance(want, set):
                print(f"FAIL {f}: only prc {sorted(got - want, key=str)[:5]} only python {sorted(want - got, key=str)[:5]}")
            else:
                print(f"FAIL {f}: prc {str(got)[:200]} python {str(want)[:200]}")
            failed += 1
        elif exc is not None:
            print(f"FAIL {f}: listed as an exception ({exc}) but now agrees: remove it from the list")
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

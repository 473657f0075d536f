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

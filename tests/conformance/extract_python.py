# extract_python.py - the Python (pypi) extractors against an independent
# reading of the same files, made with Python's own tomllib, json and
# configparser and PyPA's packaging (PEP 508 and PEP 440), never with prc.
#
#   /usr/bin/python3 extract_python.py XDUMP FILE...
#
# For every file the set of components (PEP 503 name, pinned version or
# None) prc yields must equal the set read here (with poetry.lock, uv.lock and
# pdm.lock's edges: each package's dependencies to the one package of that name), and prc must extract the
# file (no refusal).  Requirement lines this reader cannot read must be the
# lines prc lists in not_extracted.  Justified differences are listed in
# EXCEPTIONS with their reason; an exception that no longer differs fails,
# so the list stays honest.  Ends with "N passed, N failed".
import configparser
import json
import os
import re
import subprocess
import sys
import tomllib

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

# path suffix -> reason (none today: every difference so far was a prc bug, fixed)
EXCEPTIONS = {}


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def pep508_pin(req):
    specs = list(req.specifier)
    if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
        return specs[0].version
    return None


def pep508(text, out, bad):
    try:
        r = Requirement(text)
    except InvalidRequirement:
        bad.append(text)
        return
    out.add((norm(r.name), pep508_pin(r)))


def exact(v):
    """A Poetry or Pipfile version string that pins one version."""
    if not isinstance(v, str):
        return None
    if v.startswith("=="):
        v = v[2:]
    try:
        Version(v)
    except InvalidVersion:
        return None
    return v if v[:1].isdigit() else None


# ---------------------------------------------------------------- requirements files

def location_name(loc):
    m = re.search(r"[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)", loc)
    if m:
        return m.group(1)
    path = loc.split("#")[0].split("?")[0]
    base = path.rsplit("/", 1)[-1]
    if base.endswith(".whl"):
        return base.split("-")[0]
    return None


def looks_like_location(tok):
    """pip's order: a URL, an archive file name or an explicit path is a location."""
    return (re.match(r"^[A-Za-z0-9+.-]+://", tok) is not None or tok.startswith(("file:", ".", "/", "~"))
            or (tok.endswith((".whl", ".tar.gz", ".zip", ".tar.bz2", ".tar.xz", ".tgz", ".tar"))
                and "@" not in tok))


def requirements(text):
    out, bad = set(), []
    logical, cur = [], ""
    for raw in text.splitlines():
        if raw.endswith("\\"):
            cur += raw[:-1]
            continue
        logical.append(cur + raw)
        cur = ""
    if cur:
        logical.append(cur)
    for line in logical:
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if not line:
            continue
        if line.startswith("-"):
            parts = line.split()
            if parts[0] in ("-e", "--editable") and len(parts) > 1:
                name = location_name(parts[1])
                if name is None:
                    bad.append(parts[1])
                else:
                    out.add((norm(name), None))
            elif parts[0].startswith("-e") and parts[0] not in ("-e",):
                name = location_name(parts[0][2:])
                (bad.append(parts[0]) if name is None else out.add((norm(name), None)))
            continue
        # the requirement ends where the first option token starts (pip's rule)
        toks = re.split(r"\s+-", " " + line, maxsplit=1)
        req = toks[0].strip() if len(toks) > 1 else line
        first = re.split(r"[\s;]", req, maxsplit=1)[0]
        if not looks_like_location(first):
            try:
                r = Requirement(req)
                out.add((norm(r.name), pep508_pin(r)))
                continue
            except InvalidRequirement:
                if "/" not in first and "\\" not in first:
                    bad.append(req)
                    continue
        name = location_name(first)
        if name is None:
            bad.append(req)
        else:
            out.add((norm(name), None))
    return out, bad


# ---------------------------------------------------------------- manifests

def groups_expand(groups):
    def members(name, seen):
        for k, v in groups.items():
            if norm(k) == norm(name):
                for e in v:
                    if isinstance(e, str):
                        yield e
                    else:
                        if norm(e["include-group"]) in seen:
                            raise ValueError("cycle")
                        yield from members(e["include-group"], seen | {norm(e["include-group"])})
    for k in groups:
        yield from members(k, {norm(k)})


def poetry_table(t, out):
    for name, v in t.items():
        if name == "python":
            continue
        for one in (v if isinstance(v, list) else [v]):
            ver = one if isinstance(one, str) else one.get("version")
            out.add((norm(name), exact(ver)))


def pyproject(text):
    doc = tomllib.loads(text)
    out, bad = set(), []
    proj = doc.get("project", {})
    for r in proj.get("dependencies", []):
        pep508(r, out, bad)
    for lst in proj.get("optional-dependencies", {}).values():
        for r in lst:
            pep508(r, out, bad)
    for r in doc.get("build-system", {}).get("requires", []):
        pep508(r, out, bad)
    for r in groups_expand(doc.get("dependency-groups", {})):
        pep508(r, out, bad)
    tool = doc.get("tool", {})
    po = tool.get("poetry", {})
    poetry_table(po.get("dependencies", {}), out)
    poetry_table(po.get("dev-dependencies", {}), out)
    for g in po.get("group", {}).values():
        poetry_table(g.get("dependencies", {}), out)
    for lst in tool.get("pdm", {}).get("dev-dependencies", {}).values():
        for r in lst:
            pep508(r, out, bad)
    for r in tool.get("uv", {}).get("dev-dependencies", []):
        pep508(r, out, bad)
    return out, bad


def setup_cfg(text):
    cp = configparser.ConfigParser(interpolation=None)
    cp.read_string(text)
    out, bad = set(), []

    def lst(val):
        sep = "\n" if "\n" in val else ";"
        for e in val.split(sep):
            e = e.strip()
            if e and not e.startswith("#"):
                yield e
    for key in ("install_requires", "setup_requires", "tests_require"):
        if cp.has_option("options", key):
            for r in lst(cp.get("options", key)):
                pep508(r, out, bad)
    if cp.has_section("options.extras_require"):
        for _, val in cp.items("options.extras_require"):
            for r in lst(val):
                pep508(r, out, bad)
    return out, bad


def pipfile(text):
    doc = tomllib.loads(text)
    out = set()
    for k, t in doc.items():
        if k in ("source", "requires", "pipenv", "scripts"):
            continue
        for name, v in t.items():
            ver = v if isinstance(v, str) else v.get("version")
            out.add((norm(name), exact(ver)))
    return out, []


# ---------------------------------------------------------------- lockfiles

def pipfile_lock(text):
    doc = json.loads(text)
    out = set()
    for k, cat in doc.items():
        if k == "_meta":
            continue
        for name, e in cat.items():
            v = e.get("version")
            out.add((norm(name), v[2:] if v and v.startswith("==") else None))
    return out, []


def toml_packages(text, key="package", skip_root=False, edges=False):
    doc = tomllib.loads(text)
    out = set()
    pkgs = []
    for p in doc.get(key, []):
        src = p.get("source", {})
        if skip_root and (src.get("editable") == "." or src.get("virtual") == "."):
            continue
        out.add((norm(p["name"]), p.get("version")))
        pkgs.append(p)
    if edges:
        # each package's dependencies (a table, a list of {name}, or PEP 508 strings) to the one package of that name
        for p in pkgs:
            deps = p.get("dependencies", {})
            names = list(deps) if isinstance(deps, dict) else \
                [Requirement(d).name if isinstance(d, str) else d["name"] for d in deps]
            for n in names:
                hits = [q for q in pkgs if norm(q["name"]) == norm(n)]
                frm, to = (norm(p["name"]), p.get("version")), None
                if len(hits) == 1:
                    to = (norm(hits[0]["name"]), hits[0].get("version"))
                if to is not None and to != frm:
                    out.add(("edge", frm, to))
    return out, []


READERS = [
    (lambda b: b == "pyproject.toml", pyproject),
    (lambda b: b == "setup.cfg", setup_cfg),
    (lambda b: b == "Pipfile", pipfile),
    (lambda b: b == "Pipfile.lock", pipfile_lock),
    (lambda b: b == "poetry.lock", lambda t: toml_packages(t, edges=True)),
    (lambda b: b == "uv.lock", lambda t: toml_packages(t, skip_root=True, edges=True)),
    (lambda b: b == "pdm.lock", lambda t: toml_packages(t, edges=True)),
    (lambda b: b.startswith("pylock.") and b.endswith(".toml"), lambda t: toml_packages(t, "packages")),
    (lambda b: b.endswith((".txt", ".in")), requirements),
]


def reader_for(path):
    base = os.path.basename(path)
    for match, fn in READERS:
        if match(base):
            return fn
    return None


def main():
    xdump, files = sys.argv[1], sys.argv[2:]
    res = subprocess.run([xdump] + files, capture_output=True, text=True)
    got = {}
    for line in res.stdout.splitlines():
        f, verdict, rest = line.split("\t", 2)
        got[f] = (verdict, rest)
    passed = failed = 0
    for f in files:
        reason = next((r for s, r in EXCEPTIONS.items() if f.endswith(s)), None)
        verdict, rest = got.get(f, ("missing", ""))
        problems = []
        if verdict != "ok":
            problems.append("prc refused it: " + rest)
        else:
            md = json.loads(rest)
            if not md["format"].startswith("pypi-"):
                problems.append("owned by " + md["format"])
            with open(f, encoding="utf-8") as fh:
                want, bad = reader_for(f)(fh.read())
            deps = md["dependencies"]
            have = {(norm(d["name"]), d["resolved"]) for d in deps}
            have |= {e for e in (("edge", (norm(d["name"]), d["resolved"]),
                                  (norm(deps[i]["name"]), deps[i]["resolved"]))
                                 for d in deps for i in d["depends_on"] or []) if e[1] != e[2]}
            if have != want:
                problems.append("prc only: %s; reader only: %s" % (sorted(have - want, key=str),
                                                                  sorted(want - have, key=str)))
            ne = [n["what"] for n in md["not_extracted"] if n["what"] != "tool.uv.sources"]
            if sorted(ne) != sorted(bad):
                problems.append("not extracted by prc %s, unreadable here %s" % (ne, bad))
        if reason is not None:
            if problems:
                passed += 1
            else:
                failed += 1
                print("FAIL %s: listed as an exception (%s) but agrees" % (f, reason))
            continue
        if problems:
            failed += 1
            print("FAIL %s: %s" % (f, "; ".join(problems)))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

# extract_gha.py - prc's GitHub Actions and Dockerfile extractors against an
# independent reading of the same files (never prc's own code):
#   workflows   - PyYAML's composer (its own YAML reader, with node marks):
#                 every job- and step-level `uses` with its line, and the
#                 dependency set (name, requirement, resolved) the uses,
#                 container and service images give;
#   Dockerfiles - a plain line reader written here: every FROM with its
#                 line and its base after ARG substitution, and the base
#                 image dependency set.
#
#   /usr/bin/python3 extract_gha.py XDUMP workflows|dockerfiles FILE...
#
# Ends with "N passed, N failed".  Documented exceptions: EXCEPTIONS below.
import json
import re
import subprocess
import sys

import yaml

# path suffix -> reason; a listed file that agrees is reported, so the list stays honest.
EXCEPTIONS = {}

SHA40 = re.compile(r"^[0-9a-fA-F]{40}$")


def split_image(ref):
    """name as written without tag and digest, tag, digest"""
    digest = None
    if "@" in ref:
        ref, digest = ref.split("@", 1)
    tag = None
    last = ref.rsplit("/", 1)[-1]
    if ":" in last:
        tag = last.rsplit(":", 1)[1]
        ref = ref[: len(ref) - len(tag) - 1]
    return ref, tag, digest


# ---- workflows ---------------------------------------------------------------

def mapping(node):
    return dict((k.value, v) for k, v in node.value) if isinstance(node, yaml.MappingNode) else {}


def workflow_expect(path):
    with open(path, encoding="utf-8") as f:
        root = yaml.compose(f)
    uses, deps = [], []
    jobs = mapping(mapping(root).get("jobs"))
    for jid, jnode in jobs.items():
        job = mapping(jnode)
        if "uses" in job:
            u = job["uses"]
            uses.append((jid, -1, u.value, u.start_mark.line + 1))
            deps.append(action_dep(u.value))
        for key in ("container",):
            if key in job:
                deps.append(image_dep(job[key]))
        for sid, snode in mapping(job.get("services")).items():
            deps.append(image_dep(snode))
        steps = job.get("steps")
        if isinstance(steps, yaml.SequenceNode):
            for i, snode in enumerate(steps.value):
                s = mapping(snode)
                if "uses" in s:
                    u = s["uses"]
                    uses.append((jid, i, u.value, u.start_mark.line + 1))
                    deps.append(action_dep(u.value))
    return sorted(uses), sorted(d for d in deps if d is not None)


def action_dep(raw):
    if raw.startswith("./") or raw.startswith("../"):
        return None
    if raw.startswith("docker://"):
        name, tag, digest = split_image(raw[len("docker://"):])
        return (name, tag, digest)
    if "@" not in raw:
        return None
    name, ref = raw.rsplit("@", 1)
    return (name, ref, ref if SHA40.match(ref) else None)


def image_dep(node):
    img = node
    if isinstance(node, yaml.MappingNode):
        img = mapping(node).get("image")
    if not isinstance(img, yaml.ScalarNode) or not img.value or "${{" in img.value:
        return None
    return split_image(img.value)


def workflow_got(md):
    uses = []
    for j in md["details"]["jobs"]:
        if j["uses"] is not None:
            uses.append((j["id"], -1, j["uses"]["raw"], j["uses"]["line"]))
        for s in j["steps"]:
            if s["uses"] is not None:
                uses.append((j["id"], s["index"], s["uses"]["raw"], s["uses"]["line"]))
    deps = [(d["name"], d["requirement"], d["resolved"]) for d in md["dependencies"]]
    return sorted(uses), sorted(deps)


# ---- Dockerfiles ------------------------------------------------------------------

def docker_logical_lines(text):
    """(line, text) of each instruction: directives, comments, continuations and heredocs as Docker reads them"""
    lines = text.split("\n")
    esc = "\\"
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*#\s*([A-Za-z]+)\s*=\s*(.*?)\s*$", lines[i])
        if not m:
            break
        if m.group(1).lower() == "escape":
            esc = m.group(2)
        i += 1
    out = []
    while i < len(lines):
        raw = lines[i]
        if raw.strip() == "" or raw.lstrip().startswith("#"):
            i += 1
            continue
        start = i + 1
        parts = []
        while i < len(lines):
            cur = lines[i]
            i += 1
            if parts and (cur.strip() == "" or cur.lstrip().startswith("#")):
                continue
            cur = cur.rstrip(" \t\r")
            if cur.endswith(esc):
                parts.append(cur[:-1])
                continue
            parts.append(cur)
            break
        logical = " ".join(parts)
        word = logical.split(None, 1)[0].upper() if logical.split() else ""
        if word in ("RUN", "COPY", "ADD"):
            for m in re.finditer(r"<<(-?)([\"']?)([A-Za-z0-9_.-]+)\2", logical):
                strip, delim = m.group(1) == "-", m.group(3)
                while i < len(lines):
                    body = lines[i].rstrip("\r")
                    i += 1
                    if (body.lstrip("\t") if strip else body) == delim:
                        break
        out.append((start, logical))
    return out


def substitute(word, args):
    unresolved = []

    def var(m):
        name = m.group(1) or m.group(3)
        op, alt = m.group(2) or "", None
        if op:
            mm = re.match(r"^(:?[-+])(.*)$", op)
            op, alt = mm.group(1), mm.group(2)
        val = args.get(name)
        if op.endswith("-"):
            if val is None or (op == ":-" and val == ""):
                return alt
            return val
        if op.endswith("+"):
            return alt if val is not None and (op == "+" or val != "") else ""
        if val is None:
            unresolved.append(name)
            return ""
        return val

    out = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)([:]?[-+][^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)", var, word)
    return out.replace('"', "").replace("'", ""), unresolved


def docker_expect(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    args, stages, froms, deps = {}, [], [], []
    for line, logical in docker_logical_lines(text):
        words = logical.split()
        kw = words[0].upper()
        if kw == "ARG" and not stages:
            for w in words[1:]:
                name, _, default = w.partition("=")
                args[name] = default.strip("\"'") if "=" in w else None
        if kw == "FROM":
            rest = [w for w in words[1:] if not w.startswith("--")]
            base, unresolved = substitute(rest[0], args)
            alias = rest[2].lower() if len(rest) == 3 else None
            earlier = base.lower() in stages or (base.isdigit() and int(base) < len(stages))
            stages.append(alias)
            froms.append((line, base if not unresolved else None))
            if not unresolved and not earlier and base != "scratch":
                deps.append(split_image(base))
        if kw in ("COPY", "ADD"):
            for w in words[1:]:
                if w.startswith("--from="):
                    src = w[len("--from="):]
                    if src.lower() not in stages and not (src.isdigit() and int(src) < len(stages)):
                        deps.append(split_image(src))
    return froms, sorted(deps)


def docker_got(md):
    froms = [(s["line"], s["base"] if not s["unresolved"] else None) for s in md["details"]["stages"]]
    deps = [split_image(d["name"] + (":" + d["requirement"] if d["requirement"] else "") +
                        ("@" + d["resolved"] if d["resolved"] else "")) for d in md["dependencies"]]
    return froms, sorted(deps)


def main():
    helper, kind, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    fmt = "gha-workflow" if kind == "workflows" else "dockerfile"
    out = subprocess.run([helper, "-f", fmt] + files, capture_output=True, text=True, check=False).stdout
    mine = {}
    for line in out.splitlines():
        p = line.split("\t")
        mine[p[0]] = ("ok", json.loads(p[2])) if p[1] == "ok" else ("err", "\t".join(p[2:]))
    passed = failed = 0
    for f in files:
        reason = next((r for suffix, r in EXCEPTIONS.items() if f.endswith(suffix)), None)
        got = mine.get(f, ("err", "no output from xdump"))
        try:
            ref = workflow_expect(f) if kind == "workflows" else docker_expect(f)
        except Exception as e:  # noqa: BLE001 - the independent reader cannot read it: a mismatch to explain
            ref = ("reader-error", repr(e))
        if got[0] != "ok":
            same, why = False, "prc refused: " + got[1]
        else:
            have = workflow_got(got[1]) if kind == "workflows" else docker_got(got[1])
            same = have == ref
            why = "prc %r\n         python %r" % (have, ref)
        if same and reason is None:
            passed += 1
        elif not same and reason is not None:
            passed += 1
            print("expected difference %s: %s" % (f, reason))
        elif same:
            failed += 1
            print("FAIL %s is listed as an exception (%s) but agrees: remove it" % (f, reason))
        else:
            failed += 1
            print("FAIL %s\n    %s" % (f, why))
    print("%s: %d files compared" % (kind, len(files)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

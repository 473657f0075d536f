"""result_validate.py [--schemas DIR] [--state-dirs DIR] PATH...: validate every prc machine-output
document among PATHs (files, or directories read recursively) and, for each prc batch state dir named
by a line of a file DIR/state-dir.* (tests/cli/result_wrap.sh), its runs/ and index.json, with
python3-jsonschema (Draft 2020-12), an implementation independent of prc (issue 22; docs/reports.md
"Machine output is validated").

A document is checked against the schema its "schema" member names:
  prc.run-result/v1             schemas/run-result.schema.json, and each of its executions
                                schemas/execution-record.schema.json
  prc.batch-index/v1            schemas/batch-index.schema.json
  prc.execution-record/v0.1-3   schemas/execution-record.schema.json
Each schema is itself checked against the 2020-12 metaschema first.  A file that is empty, is not JSON,
or names no prc schema (an error document, another command's output) is skipped; one that names a
"prc.run-result/", "prc.batch-index/" or "prc.execution-record/" schema this script does not know is an
error.  Identical documents (the same result kept by two routes) are counted once.

Prints, for each invalid document, "FILE: /json/pointer: message" for its first error (the error at
the smallest JSON pointer) and how many more it has; then "validated: N run results, N batch indexes, N execution records" and,
last, "N validated" (N: all three).  Exits 1 when any document is invalid, 2 when a schema is (or
refers to anything outside schemas/: nothing is ever fetched).
"""
import glob
import hashlib
import json
import os
import sys

import jsonschema

KINDS = [
    # (schema file, "schema" values, what the count line calls it)
    ("run-result.schema.json", {"prc.run-result/v1"}, "run results"),
    ("batch-index.schema.json", {"prc.batch-index/v1"}, "batch indexes"),
    ("execution-record.schema.json",
     {"prc.execution-record/v0.1", "prc.execution-record/v0.2", "prc.execution-record/v0.3"},
     "execution records"),
]
FAMILIES = ("prc.run-result/", "prc.batch-index/", "prc.execution-record/")


def pointer(path):
    """The JSON pointer (RFC 6901) of path; "(document)" for the whole document."""
    path = list(path)
    if not path:
        return "(document)"
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def order(path):
    """Sorts JSON paths as the document lists them: array indexes as numbers."""
    return [(0, p, "") if isinstance(p, int) else (1, 0, p) for p in path]


def refuse(uri):
    raise jsonschema.exceptions.RefResolutionError(f"{uri}: a schema in schemas/ refers outside itself")


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    yield os.path.join(d, n)
        else:
            yield p


def main(argv):
    schemas = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas")
    if len(argv) >= 2 and argv[0] == "--schemas":
        schemas, argv = argv[1], argv[2:]
    if len(argv) >= 2 and argv[0] == "--state-dirs":
        listed, argv = argv[1], argv[2:]
        dirs = set()
        for f in glob.glob(os.path.join(glob.escape(listed), "state-dir.*")):
            dirs |= set(open(f).read().split("\n")) - {""}
        for d in sorted(dirs):
            argv += [p for p in (os.path.join(d, "runs"), os.path.join(d, "index.json")) if os.path.exists(p)]
    loaded = {}
    for name, _, _ in KINDS:
        s = json.load(open(os.path.join(schemas, name)))
        try:
            jsonschema.Draft202012Validator.check_schema(s)
        except jsonschema.exceptions.SchemaError as e:
            print(f"schemas/{name}: not a valid 2020-12 schema: {pointer(e.absolute_path)}: {e.message[:300]}",
                  file=sys.stderr)
            return 2
        loaded[name] = s
    # Each schema is self-contained; a $ref to anything else is refused, never fetched (tests stay offline).
    store = {s["$id"]: s for s in loaded.values()}
    validators = {}
    for name, values, _ in KINDS:
        resolver = jsonschema.RefResolver.from_schema(loaded[name], store=store,
                                                      handlers={"http": refuse, "https": refuse})
        v = jsonschema.Draft202012Validator(loaded[name], resolver=resolver)
        for value in values:
            validators[value] = (v, name)
    record = validators["prc.execution-record/v0.3"][0]
    counts = {name: 0 for name, _, _ in KINDS}
    seen = set()
    bad = 0
    for f in files(argv):
        try:
            raw = open(f, "rb").read()
        except OSError as e:
            print(f"{f}: cannot read: {e.strerror}", file=sys.stderr)
            bad += 1
            continue
        if not raw.strip():
            continue
        try:
            doc = json.loads(raw)
        except ValueError:
            continue
        tag = doc.get("schema") if isinstance(doc, dict) else None
        if not isinstance(tag, str) or not tag.startswith(FAMILIES):
            continue
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).digest()
        if digest in seen:
            continue
        seen.add(digest)
        if tag not in validators:
            print(f"{f}: /schema: {tag!r} is not a schema this validator knows", file=sys.stderr)
            bad += 1
            continue
        v, name = validators[tag]
        counts[name] += 1
        try:
            errors = [([], e) for e in v.iter_errors(doc)]
            # A run result's executions are execution records: checked against that schema too.
            if name == "run-result.schema.json" and isinstance(doc.get("executions"), list):
                for i, rec in enumerate(doc["executions"]):
                    errors += [(["executions", i], e) for e in record.iter_errors(rec)]
        except jsonschema.exceptions.RefResolutionError as e:
            print(f"schemas/{name}: {e}", file=sys.stderr)
            return 2
        if errors:
            bad += 1
            path = min((at + list(e.absolute_path) for at, e in errors), key=order)
            e = jsonschema.exceptions.best_match([e for at, e in errors if at + list(e.absolute_path) == path])
            more = f" ({len(errors) - 1} more)" if len(errors) > 1 else ""
            print(f"{f}: {pointer(path)}: {e.message[:400]}{more}", file=sys.stderr)
    print("validated: " + ", ".join(f"{counts[n]} {what}" for n, _, what in KINDS))
    print(f"{sum(counts.values())} validated")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

# test_adapter_schemas.sh - the adapter schemas checked with an independent
# validator (Debian's python3-jsonschema, Draft 2020-12): every accepted
# message of the checked-in transcripts, every fixture manifest, the suite
# and the report prc writes.  Also: messages the decoder rejects for a
# schema-visible reason are invalid under the schema too.
# shellcheck disable=SC1091
source tests/cli/adapter_lib.sh

t_schemas_are_valid_draft_2020_12() {
        $PY - <<'PY'
import json, glob, jsonschema
files = sorted(glob.glob("schemas/adapter-*.schema.json"))
assert len(files) >= 7, files   # the registry area adds its own adapter-* schemas
for f in files:
    s = json.load(open(f))
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema", f
    jsonschema.Draft202012Validator.check_schema(s)
PY
}

t_every_accepted_message_validates() {
        $PY - <<'PY'
import json, yaml, jsonschema
v = jsonschema.Draft202012Validator(json.load(open("schemas/adapter-message.schema.json")))
suite = yaml.safe_load(open("fixtures/adapters/fixture-suite.yaml"))
n = 0
for c in suite["cases"]:
    if c["expect"]["disposition"] != "accepted":
        continue
    for line in open("fixtures/adapters/" + c["transcript"], "rb"):
        v.validate(json.loads(line))
        n += 1
for line in open("fixtures/adapters/valid-output.jsonl", "rb"):
    v.validate(json.loads(line))
assert n >= 10, n
PY
}

t_the_scanner_request_lines_validate() {
        $PY - <<'PY'
import json, jsonschema
v = jsonschema.Draft202012Validator(json.load(open("schemas/adapter-message.schema.json")))
h = "0" * 63 + "1"
for m in ({"type": "hello", "protocol": "prc-adapter-jsonl-v1", "run_id": h},
          {"type": "input", "subject": {"target_name": "example", "inventory_digest": h}, "facts": {}, "config": {}},
          {"type": "execute"}):
    v.validate(m)
PY
}

t_schema_rejects_what_the_decoder_rejects_per_line() {
        # per-line classes the schema can express; counters, ids across lines, end-before-start and limits it cannot
        $PY - <<'PY'
import json, yaml, jsonschema
v = jsonschema.Draft202012Validator(json.load(open("schemas/adapter-message.schema.json")))
suite = yaml.safe_load(open("fixtures/adapters/fixture-suite.yaml"))
visible = {"authority-claim", "unknown-field", "unknown-message-type", "invalid-path",
           "value-outcome-mismatch"}
checked = 0
for c in suite["cases"]:
    e = c["expect"]
    if e["error_class"] not in visible or c.get("limits"):
        continue
    lines = open("fixtures/adapters/" + c["transcript"], "rb").read().split(b"\n")
    msg = json.loads(lines[e["line"] - 1])
    assert not v.is_valid(msg), (c["id"], msg)
    checked += 1
assert checked >= 15, checked
PY
}

t_fixture_manifests_validate_against_their_schemas() {
        $PY - <<'PY'
import json, yaml, jsonschema
def val(schema, doc):
    jsonschema.Draft202012Validator(json.load(open(schema))).validate(doc)
val("schemas/adapter-manifest.schema.json", yaml.safe_load(open("fixtures/adapters/fixture-adapter.yaml")))
for n in (1, 2, 3):
    doc = yaml.safe_load(open(f"fixtures/adapters/archived/fixture-adapter-v0.{n}.yaml"))
    val(f"schemas/adapter-manifest-v0.{n}.schema.json", doc)
    # an archived manifest is not a v0.4 manifest
    assert not jsonschema.Draft202012Validator(json.load(open("schemas/adapter-manifest.schema.json"))).is_valid(doc)
# the schema also refuses self-declared trust, tags and floating versions
s = jsonschema.Draft202012Validator(json.load(open("schemas/adapter-manifest.schema.json")))
m = yaml.safe_load(open("fixtures/adapters/fixture-adapter.yaml"))
for k, bad in (("trust", "first-party"), ("verified", True)):
    d = dict(m); d[k] = bad; assert not s.is_valid(d), k
d = json.loads(json.dumps(m)); d["tool"]["version"] = "latest"; assert not s.is_valid(d)
d = json.loads(json.dumps(m)); d["tool"]["version"] = "1.x"; assert not s.is_valid(d)
d = json.loads(json.dumps(m)); d["image"]["repository"] = "prc/fixture:1.0"; assert not s.is_valid(d)
d = json.loads(json.dumps(m)); d["image"]["registry"] = "docker"; assert not s.is_valid(d)
d = json.loads(json.dumps(m)); d["command"] = ["/bin/sh", "-c", "x"]; assert not s.is_valid(d)
d = json.loads(json.dumps(m)); d["limits"]["messages"] = 1000001; assert not s.is_valid(d)
PY
}

t_suite_and_report_validate_against_their_schemas() {
        arun "$PRC" adapter fixture-validate --suite "$FIX/fixture-suite.yaml" --format json
        expect_rc 0
        printf '%s' "$OUT" > "$TMP/report.json"
        $PY - "$TMP/report.json" <<'PY'
import json, sys, yaml, jsonschema
jsonschema.Draft202012Validator(json.load(open("schemas/adapter-fixture-suite.schema.json"))).validate(
    yaml.safe_load(open("fixtures/adapters/fixture-suite.yaml")))
jsonschema.Draft202012Validator(json.load(open("schemas/adapter-fixture-report.schema.json"))).validate(
    json.load(open(sys.argv[1])))
PY
}

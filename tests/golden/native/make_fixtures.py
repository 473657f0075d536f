#!/usr/bin/python3
# make_fixtures.py - writes the hand-made native-protocol fixtures (*.in) in
# this directory.  Provenance: see PROVENANCE.md here.  Every base fixture is
# derived by hand from a real sample in ../shared/corpora/native (named per
# base) with the test-only values replaced by ones the pinned tool version
# and the scanner-owned command would write (FORMATS.md); every mutation
# changes exactly one thing, so each rejection has its own case.
# Run: /usr/bin/python3 tests/golden/native/make_fixtures.py  (then
# PRC_UPDATE_GOLDEN=1 build/asan/prc-tests -s native_golden, review the diff).
import calendar, copy, json, os, time

HERE = os.path.dirname(os.path.abspath(__file__))
SNAP = "/prc-snapshot"


def write(tool, name, doc, raw=None, indent=None):
    d = os.path.join(HERE, tool)
    os.makedirs(d, exist_ok=True)
    text = raw if raw is not None else json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"
    with open(os.path.join(d, name + ".in"), "w") as f:
        f.write(text)


# ---- gitleaks: based on gitleaks/reports/native/json_simple.json, dir mode, --redact=100
def finding(rule, rel, sl, el, sc, ec, match="line containing REDACTED"):
    f = f"{SNAP}/{rel}"
    return {"RuleID": rule, "Description": "", "StartLine": sl, "EndLine": el, "StartColumn": sc,
            "EndColumn": ec, "Match": match, "Secret": "REDACTED", "File": f, "SymlinkFile": "",
            "Commit": "", "Entropy": 3.0841837, "Author": "", "Email": "", "Date": "", "Message": "",
            "Tags": [], "Fingerprint": f"{f}:{rule}:{sl}"}


g1 = [finding("generic-api-key", "src/config.py", 20, 20, 16, 35, "api_key = \"REDACTED\""),
      finding("aws-access-token", "auth.py", 1, 2, 1, 2)]
write("gitleaks", "001-findings", g1, indent=1)
write("gitleaks", "002-empty", None, raw="[]\n")
po = finding("pkcs12-file", "certs/client.p12", 0, 0, 0, 0)
po["Match"] = "REDACTED" + "".join(c + "REDACTED" for c in f"file detected: {SNAP}/certs/client.p12")
po["Entropy"] = 0
write("gitleaks", "003-path-only", [po], indent=1)
rel = finding("github-pat", ".prc/gitleaks/relocated-gitleaksignore", 3, 3, 1, 40, "REDACTED")
write("gitleaks", "004-relocated-ignore", [rel], indent=1)


def gmut(name, fn):
    d = copy.deepcopy(g1)
    fn(d[0])
    write("gitleaks", name, d, indent=1)


gmut("101-unredacted-secret", lambda f: f.update(Secret="hunter2hunter2"))
gmut("102-unredacted-match", lambda f: f.update(Match="api_key = \"hunter2hunter2\""))
gmut("103-history-commit", lambda f: f.update(Commit="9326f35380636bcbe61e94b0584d1618c4b5c2c2"))
gmut("104-history-link", lambda f: f.update(Link="https://github.com/o/r/blob/x/src/config.py#L20"))
gmut("105-symlink", lambda f: f.update(SymlinkFile=f"{SNAP}/link.py"))
gmut("106-path-outside", lambda f: f.update(File="/etc/passwd", Fingerprint="/etc/passwd:generic-api-key:20"))
gmut("107-path-escape", lambda f: f.update(File=f"{SNAP}/../etc/passwd",
                                            Fingerprint=f"{SNAP}/../etc/passwd:generic-api-key:20"))
gmut("108-path-scanner-owned", lambda f: f.update(File=f"{SNAP}/.prc/syft/config.yaml",
                                                   Fingerprint=f"{SNAP}/.prc/syft/config.yaml:generic-api-key:20"))
gmut("109-fingerprint", lambda f: f.update(Fingerprint=f"{SNAP}/src/config.py:generic-api-key:21"))
gmut("110-coords-end-before-start", lambda f: f.update(EndLine=19))
gmut("111-coords-mixed-zero", lambda f: f.update(StartLine=0, Fingerprint=f"{SNAP}/src/config.py:generic-api-key:0"))
gmut("112-coords-columns", lambda f: f.update(EndColumn=3))
gmut("113-decoded-tag", lambda f: f.update(Tags=["decoded:base64", "decode-depth:1"]))
gmut("114-missing-field", lambda f: f.pop("SymlinkFile"))
gmut("115-entropy-range", lambda f: f.update(Entropy=9.5))
write("gitleaks", "116-duplicate-field", None,
      raw=json.dumps(g1, indent=1).replace('"RuleID": "generic-api-key",',
                                           '"RuleID": "generic-api-key",\n  "RuleID": "x",', 1) + "\n")
write("gitleaks", "117-not-array", {"findings": []})
po2 = copy.deepcopy(po)
po2["Match"] = f"file detected: {SNAP}/certs/client.p12"
write("gitleaks", "118-path-only-unredacted-match", [po2], indent=1)

# ---- syft: based on syft/cyclonedx-json/spec-1.7/TestCycloneDxDirectoryEncoder.golden.json,
# with real values instead of the test redactions, valid PURLs, a file component and dependencies.
syft = {
    "$schema": "http://cyclonedx.org/schema/bom-1.7.schema.json",
    "bomFormat": "CycloneDX",
    "specVersion": "1.7",
    "serialNumber": "urn:uuid:1b8e4f6a-0c2d-4e5f-9a7b-3c4d5e6f7a8b",
    "version": 1,
    "metadata": {
        "timestamp": "2026-08-12T10:04:05-04:00",
        "tools": {"components": [{"type": "application", "author": "anchore", "name": "syft", "version": "1.51.0"}]},
        "component": {"bom-ref": "5e7a6c1d2b3f4a59", "type": "file", "name": SNAP},
    },
    "components": [
        {"bom-ref": "pkg:pypi/package-1@1.0.1?package-id=f04d218ff5ff50db", "type": "library", "name": "package-1",
         "version": "1.0.1", "licenses": [{"license": {"id": "MIT"}}],
         "cpe": "cpe:2.3:*:some:package:1:*:*:*:*:*:*:*", "purl": "pkg:pypi/package-1@1.0.1",
         "properties": [{"name": "syft:package:foundBy", "value": "python-installed-package-cataloger"},
                        {"name": "syft:package:language", "value": "python"},
                        {"name": "syft:package:type", "value": "python"},
                        {"name": "syft:package:metadataType", "value": "python-package"},
                        {"name": "syft:location:0:path", "value": "/pkg1/METADATA"}]},
        {"bom-ref": "pkg:deb/debian/package-2@2.0.1?package-id=39392bb5e270f669", "type": "library",
         "name": "package-2", "version": "2.0.1", "cpe": "cpe:2.3:*:some:package:2:*:*:*:*:*:*:*",
         "purl": "pkg:deb/debian/package-2@2.0.1",
         "properties": [{"name": "syft:package:foundBy", "value": "dpkg-db-cataloger"},
                        {"name": "syft:package:type", "value": "deb"},
                        {"name": "syft:package:metadataType", "value": "dpkg-db-entry"},
                        {"name": "syft:location:0:path", "value": "/var/lib/dpkg/status"},
                        {"name": "syft:metadata:installedSize", "value": "0"}]},
        {"bom-ref": "os:debian@1.2.3", "type": "operating-system", "name": "debian", "version": "1.2.3",
         "description": "debian", "swid": {"tagId": "debian", "name": "debian", "version": "1.2.3"},
         "properties": [{"name": "syft:distro:extendedSupport", "value": "false"},
                        {"name": "syft:distro:id", "value": "debian"},
                        {"name": "syft:distro:idLike:0", "value": "like!"},
                        {"name": "syft:distro:prettyName", "value": "debian"},
                        {"name": "syft:distro:versionID", "value": "1.2.3"}]},
        {"bom-ref": "0a1b2c3d4e5f6071", "type": "file", "name": "/pkg1/METADATA",
         "hashes": [{"alg": "SHA-1", "content": "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
                    {"alg": "SHA-256", "content": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]},
    ],
    "dependencies": [
        {"ref": "pkg:pypi/package-1@1.0.1?package-id=f04d218ff5ff50db",
         "dependsOn": ["pkg:deb/debian/package-2@2.0.1?package-id=39392bb5e270f669"]},
    ],
}
write("syft", "001-dir", syft)
# The same inventory scanned again: new serial number, timestamp and source bom-ref, another order.
s2 = copy.deepcopy(syft)
s2["serialNumber"] = "urn:uuid:9f0e1d2c-3b4a-4596-8877-665544332211"
s2["metadata"]["timestamp"] = "2026-08-13T01:02:03Z"
s2["metadata"]["component"]["bom-ref"] = "ffeeddccbbaa9988"
s2["components"].reverse()
s2["components"][0]["hashes"].reverse()
for c in s2["components"]:
    if "properties" in c:
        c["properties"].reverse()
write("syft", "002-dir-rerun", s2, indent=2)
e3 = copy.deepcopy(syft)
e3["components"] = []
del e3["dependencies"]
write("syft", "003-empty", e3)
# file component whose digest was not computed: hashes is present as null (FORMATS.md 2.2 c)
e4 = copy.deepcopy(syft)
e4["components"][3]["hashes"] = None
write("syft", "004-file-null-hashes", e4)


def smut(name, fn):
    d = copy.deepcopy(syft)
    fn(d)
    write("syft", name, d)


smut("101-tool-version", lambda d: d["metadata"]["tools"]["components"][0].update(version="1.50.0"))
smut("102-tool-name", lambda d: d["metadata"]["tools"]["components"][0].update(name="trivy"))
smut("103-tools-legacy-array", lambda d: d["metadata"].update(
    tools=[{"vendor": "anchore", "name": "syft", "version": "1.51.0"}]))
smut("104-spec-1.6", lambda d: d.update(specVersion="1.6"))
smut("105-schema-url", lambda d: d.update({"$schema": "https://cyclonedx.org/schema/bom-1.7.schema.json"}))
smut("106-bom-format", lambda d: d.update(bomFormat="SPDX"))
smut("107-serial-redacted", lambda d: d.update(serialNumber="urn:uuid:redacted"))
smut("108-timestamp-redacted", lambda d: d["metadata"].update(timestamp="timestamp:redacted"))
smut("109-source-name", lambda d: d["metadata"]["component"].update(name="some/path"))
smut("110-image-properties", lambda d: d["metadata"].update(properties=[{"name": "syft:image:labels:x", "value": "y"}]))
smut("111-component-type", lambda d: d["components"][0].update(type="framework"))
smut("112-component-unknown-key", lambda d: d["components"][0].update(evidence={}))
smut("113-component-duplicate-ref", lambda d: d["components"][1].update({"bom-ref": d["components"][0]["bom-ref"]}))
smut("114-component-bad-ref", lambda d: d["components"][0].update({"bom-ref": "redacted"}))
smut("115-purl-synthetic", lambda d: d["components"][0].update(purl="a-purl-2"))
smut("116-purl-no-name", lambda d: d["components"][0].update(purl="pkg:pypi/@1.0.1"))
smut("117-property-shape", lambda d: d["components"][0]["properties"].append({"name": "syft:x", "value": 1}))
smut("118-property-foreign", lambda d: d["components"][0]["properties"].append({"name": "cdx:x", "value": "1"}))
smut("119-hash-malformed", lambda d: d["components"][3]["hashes"].append({"alg": "SHA-256", "content": "xyz"}))
smut("120-dependency-unknown-ref", lambda d: d["dependencies"][0]["dependsOn"].append("pkg:npm/nope@1?package-id=0000000000000000"))
smut("121-dependency-empty", lambda d: d["dependencies"][0].update(dependsOn=[]))
smut("122-dependency-repeated", lambda d: d["dependencies"][0]["dependsOn"].append(d["dependencies"][0]["dependsOn"][0]))
smut("123-dependency-from-os", lambda d: d["dependencies"].append({"ref": "os:debian@1.2.3", "dependsOn": [d["components"][0]["bom-ref"]]}))
smut("124-top-unknown-key", lambda d: d.update(vulnerabilities=[]))
smut("125-version-2", lambda d: d.update(version=2))
write("syft", "126-duplicate-field", None, raw=json.dumps(syft).replace('"version": 1,', '"version": 1, "version": 1,', 1) + "\n")
smut("127-metadata-missing-source", lambda d: d["metadata"].pop("component"))
smut("128-source-version", lambda d: d["metadata"]["component"].update(version="1.0"))
smut("129-component-supplier", lambda d: d["components"][0].update(supplier={"name": "x"}))
smut("130-cpe-malformed", lambda d: d["components"][0].update(cpe="cpe:/a:some:package:1"))
smut("131-location-escape", lambda d: d["components"][0]["properties"][4].update(value="/../etc/passwd"))
smut("132-location-scanner-owned", lambda d: d["components"][1]["properties"][3].update(value="/.prc/syft/config.yaml"))
smut("133-file-component-escape", lambda d: d["components"][3].update(name="/../../etc/shadow"))

# ---- grype: based on grype/json/current/TestJsonDirsPresenter.golden.json with the descriptor a
# real 0.116.1 run under the scanner-owned configuration writes (configuration and db present).
NOW = "2026-07-22T12:00:00Z"
BUILT = "2026-07-21T06:12:45Z"


def epoch(t):
    return calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%SZ"))


def url(built):
    return (f"https://grype.anchore.io/databases/v6/vulnerability-db_v6.1.9_2026-07-20T23:51:30Z_{epoch(built)}"
            f".tar.zst?checksum=sha256%3A{SHA}")


BUILT_EPOCH = epoch(BUILT)
SHA = "3f7c9a1be05d4c2e8f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"
FROM = (f"https://grype.anchore.io/databases/v6/vulnerability-db_v6.1.9_2026-07-20T23:51:30Z_{BUILT_EPOCH}"
        f".tar.zst?checksum=sha256%3A{SHA}")
config = {
    "output": ["json"], "file": "", "pretty": False, "distro": "", "add-cpes-if-none": False,
    "output-template-file": "", "check-for-app-update": False, "only-fixed": False, "only-notfixed": False,
    "ignore-wontfix": "", "platform": "", "search": {"scope": "squashed", "unindexed-archives": False,
                                                      "indexed-archives": True},
    "ignore": None, "exclude": ["./.prc/**"],
    "externalSources": {"enable": False, "maven": {"searchUpstreamBySha1": True, "baseUrl": "https://repo1.maven.org/maven2", "rateLimit": 300000000}},
    "match": {"java": {"using-cpes": False}, "stock": {"using-cpes": True}},
    "fail-on-severity": "", "registry": {"insecure-skip-tls-verify": False, "insecure-use-http": False, "ca-cert": ""},
    "show-suppressed": False, "by-cve": False, "sort-by": "risk", "name": "", "default-image-pull-source": "",
    "from": None, "vex-documents": None, "vex-add": None, "match-upstream-kernel-headers": True,
    "fix-channel": {"redhat-eus": {"apply": "auto", "versions": ">= 8.0"}}, "timestamp": True,
    "alerts": {"enable-eol-distro-warnings": False},
    "db": {"cache-dir": "/prc-inputs/grype-db", "update-url": "https://grype.anchore.io/databases", "ca-cert": "",
           "auto-update": False, "validate-by-hash-on-start": True, "validate-age": True,
           "max-allowed-built-age": 432000000000000, "require-update-check": False,
           "update-available-timeout": 30000000000, "update-download-timeout": 300000000000,
           "max-update-check-frequency": 7200000000000},
    "exp": {}, "dev": {"db": {"debug": False}},
}
providers = {
    "nvd": {"captured": "2026-07-20T23:51:30Z", "input": "xxh64:83650024d7878758"},
    "epss": {"captured": "2026-07-21T00:10:02Z", "input": "xxh64:1f2e3d4c5b6a7980"},
    "kev": {"captured": "2026-07-21T00:09:41Z", "input": "xxh64:0a9b8c7d6e5f4031"},
    "debian": {"captured": "2026-07-21T00:30:00Z", "input": "xxh64:5139adec54659a52"},
}
with open(os.path.join(os.environ.get("PRC_CORPORA", "/work/shared/corpora"),
                       "native/grype/json/current/TestJsonDirsPresenter.golden.json")) as f:
    base = json.load(f)
grype = copy.deepcopy(base)
grype["source"]["target"] = SNAP
# the presenter snapshot's synthetic evidence, in the shape real matchers write (FORMATS.md 3.2)
grype["matches"][0]["matchDetails"][0]["found"] = {"vulnerabilityID": "CVE-1999-0001", "versionConstraint": ">= 20 (rpm)"}
grype["matches"][1]["matchDetails"][0]["found"] = {"vulnerabilityID": "CVE-1999-0002", "versionConstraint": "somecpe",
                                                    "cpes": ["somecpe"]}
grype["matches"][0]["vulnerability"]["namespace"] = "nvd:cpe"
grype["matches"][1]["vulnerability"]["namespace"] = "debian:distro:debian:12"
grype["matches"][1]["vulnerability"]["urls"] = None       # grype null quirk (records without metadata)
grype["matches"][1]["artifact"]["locations"] = None      # SBOM input without locations
grype["descriptor"] = {"name": "grype", "version": "0.116.1", "configuration": config,
                       "db": {"status": {"schemaVersion": "v6.1.9", "from": FROM, "built": BUILT,
                                         "path": "/prc-inputs/grype-db/6/vulnerability.db", "valid": True},
                              "providers": providers},
                       "timestamp": "2026-07-22T08:00:00.123456789-04:00"}
write("grype", "001-dir", grype)
g2 = copy.deepcopy(grype)
g2["descriptor"]["timestamp"] = "2026-07-22T11:59:59.5Z"
g2["matches"].reverse()
g2["matches"][0]["vulnerability"]["description"] = "bulk raw text that must not reach the digest"
g2["matches"][0]["vulnerability"]["cvss"][0]["vendorMetadata"] = {"base_severity": "High", "status": "Analyzed"}
write("grype", "002-dir-rerun", g2, indent=1)
g3 = copy.deepcopy(grype)
g3["matches"] = []
write("grype", "003-empty", g3)


def gm(name, fn):
    d = copy.deepcopy(grype)
    fn(d)
    write("grype", name, d)


gm("101-ignored-matches", lambda d: d.update(ignoredMatches=[dict(d["matches"][0], appliedIgnoreRules=[{"namespace": "", "vulnerability": "CVE-1999-0001"}])]))
gm("102-package-alerts", lambda d: d.update(alertsByPackage=[{"package": d["matches"][0]["artifact"], "alerts": [{"type": "distro-eol", "message": "Package is from end-of-life distro: debian 8", "metadata": {"name": "debian", "version": "8"}}]}]))
gm("103-path-escape", lambda d: d["matches"][0]["artifact"]["locations"][0].update(path="/../etc/passwd"))
gm("104-path-scanner-owned", lambda d: d["matches"][0]["artifact"]["locations"][0].update(path="/.prc/grype/config.yaml"))
gm("105-source-other", lambda d: d["source"].update(target="/some/path"))
gm("106-tool-version", lambda d: d["descriptor"].update(version="0.116.0"))
gm("107-tool-dev-build", lambda d: d["descriptor"].update(version="[not provided]"))
gm("108-db-schema-v5", lambda d: d["descriptor"]["db"]["status"].update(schemaVersion="v5.1.0"))
gm("109-db-unofficial-url", lambda d: d["descriptor"]["db"]["status"].update({"from": FROM.replace("grype.anchore.io", "evil.example")}))
gm("110-db-no-checksum", lambda d: d["descriptor"]["db"]["status"].update({"from": FROM.split("?")[0]}))
gm("111-db-manual-import", lambda d: d["descriptor"]["db"]["status"].update({"from": "manual import"}))
gm("112-db-built-mismatch", lambda d: d["descriptor"]["db"]["status"].update(built="2026-07-21T06:12:46Z"))
gm("113-db-invalid", lambda d: d["descriptor"]["db"]["status"].update(valid=False, error="checksum mismatch"))
gm("114-db-no-kev", lambda d: d["descriptor"]["db"]["providers"].pop("kev"))
gm("115-db-no-epss", lambda d: d["descriptor"]["db"]["providers"].pop("epss"))
gm("116-db-no-nvd", lambda d: d["descriptor"]["db"]["providers"].pop("nvd"))
gm("117-db-provider-input", lambda d: d["descriptor"]["db"]["providers"]["nvd"].update(input="sha256:abc"))
gm("118-db-provider-after-build", lambda d: d["descriptor"]["db"]["providers"]["kev"].update(captured="2026-07-22T00:00:00Z"))
gm("119-namespace-unknown-provider", lambda d: d["matches"][0]["vulnerability"].update(namespace="osv:language:go"))
gm("120-no-match-details", lambda d: d["matches"][0].update(matchDetails=[]))
gm("121-no-vulnerability-id", lambda d: d["matches"][0]["vulnerability"].update(id=""))
gm("122-no-package-id", lambda d: d["matches"][0]["artifact"].update(id=""))
gm("123-matcher-unknown", lambda d: d["matches"][0]["matchDetails"][0].update(matcher="magic-matcher"))
gm("124-epss-range", lambda d: d["matches"][0]["vulnerability"]["epss"][0].update(epss=1.5))
gm("125-risk-negative", lambda d: d["matches"][0]["vulnerability"].update(risk=-1))
gm("126-cvss-range", lambda d: d["matches"][0]["vulnerability"]["cvss"][0]["metrics"].update(baseScore=11.0))
gm("127-config-auto-update", lambda d: d["descriptor"]["configuration"]["db"].update({"auto-update": True}))
gm("128-config-vex", lambda d: d["descriptor"]["configuration"].update({"vex-documents": ["/src/vex.json"]}))
gm("129-config-age-seconds", lambda d: d["descriptor"]["configuration"]["db"].update({"max-allowed-built-age": 432000}))
gm("130-no-configuration", lambda d: d["descriptor"].pop("configuration"))
gm("131-unknown-field", lambda d: d["matches"][0].update(suppressed=True))
gm("132-legacy-db-shape", lambda d: d["descriptor"].update(db={"built": BUILT, "schemaVersion": 5, "location": "/x", "checksum": "sha256:" + SHA, "error": None}))
write("grype", "133-duplicate-field", None, raw=json.dumps(grype).replace('"valid": true', '"valid": true, "valid": true', 1) + "\n")
gm("134-unsafe-integer", lambda d: d["matches"][0]["artifact"]["metadata"].update(epoch=2 ** 60))
# NOW - 120 h is 2026-07-17T12:00:00Z: one second older is stale; one second after NOW is the future.
gm("135-db-stale", lambda d: d["descriptor"]["db"]["status"].update(built="2026-07-17T11:59:59Z", **{"from": url("2026-07-17T11:59:59Z")}))
gm("136-db-future", lambda d: d["descriptor"]["db"]["status"].update(built="2026-07-22T12:00:01Z", **{"from": url("2026-07-22T12:00:01Z")}))
gm("137-db-oldest-accepted", lambda d: d["descriptor"]["db"]["status"].update(built="2026-07-17T12:00:00Z", **{"from": url("2026-07-17T12:00:00Z")}) or
   [p.update(captured="2026-07-17T00:00:00Z") for p in d["descriptor"]["db"]["providers"].values()])
gm("138-artifact-bad-purl", lambda d: d["matches"][1]["artifact"].update(purl="deb/package-2"))
gm("139-cpes-not-strings", lambda d: d["matches"][0]["artifact"].update(cpes=[{"cpe": "x"}]))
gm("140-evidence-other-vulnerability", lambda d: d["matches"][0]["matchDetails"][0]["found"].update(vulnerabilityID="CVE-2000-9999"))
gm("141-evidence-without-id", lambda d: d["matches"][0]["matchDetails"][0]["found"].pop("vulnerabilityID"))
print("ok")

# ini_configparser.py - differential check of prc's INI reader against Python's
# configparser (ConfigParser(interpolation=None), strict mode, read as UTF-8).
#
#   /usr/bin/python3 ini_configparser.py HELPER FILE...
#
# Both must accept with the same {"section": {"key": "value"}} document (DEFAULT
# kept as its own section, as prc does), or both must refuse; prc's class must
# be the one that corresponds to configparser's exception.  Deliberate
# deviations are in DEVIATIONS below.  Ends with "N passed, N failed".
import configparser
import json
import subprocess
import sys

CLASS_FOR = {
    "DuplicateSectionError": "ini-duplicate-section",
    "DuplicateOptionError": "ini-duplicate-option",
    "MissingSectionHeaderError": "ini-missing-section",
    "ParsingError": "ini-syntax",
    "UnicodeDecodeError": "invalid-utf8",
}
# path suffix -> (prc outcome, reason)
DEVIATIONS = {
    "utf8/nul-in-ini.cfg": ("nul-byte", "prc refuses NUL so no C consumer can truncate a value"),
}


def reference(path):
    cp = configparser.ConfigParser(interpolation=None)
    try:
        with open(path, encoding="utf-8", newline=None) as f:
            cp.read_file(f)
    except Exception as e:  # noqa: BLE001 - any refusal is a verdict
        return "err", CLASS_FOR.get(type(e).__name__, type(e).__name__)
    doc = {}
    if cp.defaults():
        doc["DEFAULT"] = dict(cp.defaults())
    for s in cp.sections():
        doc[s] = dict(cp._sections[s])  # raw values, without DEFAULT merged in
    return "ok", doc


def main():
    helper, files = sys.argv[1], sys.argv[2:]
    out = subprocess.run([helper, "ini"] + files, capture_output=True, text=True, check=True).stdout
    mine = {}
    for line in out.splitlines():
        p = line.split("\t")
        mine[p[0]] = ("ok", json.loads(p[2])) if p[1] == "ok" else ("err", p[2])
    passed = failed = 0
    for f in files:
        want = reference(f)
        dev = next((v for k, v in DEVIATIONS.items() if f.endswith(k)), None)
        if dev is not None:
            want = ("err", dev[0]) if dev[0] != "ok" else want
        got = mine.get(f)
        if got == want:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {f}: configparser {str(want)[:200]}, prc {str(got)[:200]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(main())

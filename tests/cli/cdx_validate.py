#!/usr/bin/env python3
"""cdx_validate.py SCHEMA_DIR BOM.json: validate a CycloneDX 1.6 JSON BOM against the official schema.

SCHEMA_DIR is the res/schema directory of the npm package @cyclonedx/cyclonedx-library
(scripts/setup.sh --cyclonedx).  The schemas the BOM schema references (SPDX ids, JSF, and
the cryptography definitions) are served from that directory through a local registry:
no network.  Exit 0 valid, 1 invalid (every error printed), 2 usage or schema missing.
"""
import json
import os
import sys

import jsonschema


def resolver_args(main_schema, store):
    """A registry (jsonschema >= 4.18, the referencing package) or a RefResolver store (Debian's 4.10): both local."""
    try:
        from referencing import Registry, Resource
    except ImportError:
        return {"resolver": jsonschema.RefResolver.from_schema(main_schema, store=store)}
    return {"registry": Registry().with_resources((k, Resource.from_contents(v)) for k, v in store.items())}


def main():
    if len(sys.argv) != 3:
        print("usage: cdx_validate.py SCHEMA_DIR BOM.json", file=sys.stderr)
        return 2
    sdir, bom_path = sys.argv[1], sys.argv[2]
    main_schema = None
    store = {}
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(sdir, name), encoding="utf-8") as f:
            doc = json.load(f)
        # The package names its files *.SNAPSHOT.schema.json and refers to them by those names,
        # relative to the $id base; each is served under its $id and under its file name.
        store[doc["$id"]] = doc
        store["http://cyclonedx.org/schema/" + name] = doc
        if doc["$id"] == "http://cyclonedx.org/schema/bom-1.6.schema.json":
            main_schema = doc
    if main_schema is None:
        print("cdx_validate: no bom-1.6 schema in %s" % sdir, file=sys.stderr)
        return 2
    with open(bom_path, encoding="utf-8") as f:
        bom = json.load(f)
    cls = jsonschema.validators.validator_for(main_schema)
    cls.check_schema(main_schema)
    errors = sorted(cls(main_schema, **resolver_args(main_schema, store)).iter_errors(bom),
                    key=lambda e: [str(p) for p in e.absolute_path])
    for e in errors:
        print("cdx_validate: %s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message), file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

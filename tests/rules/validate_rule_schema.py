"""Validates every rules/<language>/<id>/rule.json against rules/schema/rule.schema.json.

The scanner enforces the same constraints when it loads rules; this test keeps the published
schema (for editors and other tools) true to what the scanner accepts.
"""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(sys.argv[1])
schema = json.loads((root / "rules/schema/rule.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = 0
files = sorted(root.glob("rules/*/*/rule.json"))
for path in files:
    for error in validator.iter_errors(json.loads(path.read_text())):
        failures += 1
        print(f"{path.relative_to(root)}: {'/'.join(map(str, error.path)) or '(top)'}: {error.message}")
print(f"{len(files) - failures} passed, {failures} failed")
sys.exit(1 if failures or not files else 0)

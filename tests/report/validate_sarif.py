#!/usr/bin/python3
"""Validates SARIF logs with Microsoft's SARIF multitool and against the SARIF 2.1.0 schema.

usage: validate_sarif.py install NPM_PREFIX
       validate_sarif.py check NPM_PREFIX MPSREADY_BIN OUT_DIR (FILE.sarif | REPO_DIR)...

`install` puts @microsoft/sarif-multitool into NPM_PREFIX (once; offline afterwards). `check`
scans each REPO_DIR with `mpsready scan --format sarif`, then validates every log: any error
line from the multitool, or any schema violation (Debian's python3-jsonschema against the schema
the npm package ships), fails. The multitool's warnings are printed but do not fail.
"""
import json
import os
import subprocess
import sys

VERSION = "5.7.0"


def tool_dir(prefix):
    return os.path.join(prefix, "node_modules", "@microsoft", "sarif-multitool-linux")


def install(prefix):
    binary = os.path.join(tool_dir(prefix), "Sarif.Multitool")
    if not os.path.exists(binary):
        os.makedirs(prefix, exist_ok=True)
        cmd = ["npm", "install", "--no-audit", "--no-fund", "--prefix", prefix,
               "@microsoft/sarif-multitool@" + VERSION]
        print(" ".join(cmd), flush=True)
        if subprocess.call(cmd) != 0:
            print("validate_sarif: npm install failed (needs the npm registry once)", file=sys.stderr)
            return 1
    # npm may refuse the package's postinstall script (chmod u+x): do it here.
    os.chmod(binary, os.stat(binary).st_mode | 0o100)
    return 0


def multitool_errors(prefix, path, out_dir):
    binary = os.path.join(tool_dir(prefix), "Sarif.Multitool")
    out = os.path.join(out_dir, os.path.basename(path) + ".validation.sarif")
    env = dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1")
    run = subprocess.run([binary, "validate", path, "--output", out, "--log", "ForceOverwrite"],
                         capture_output=True, text=True, env=env, timeout=300)
    text = run.stdout + run.stderr
    print(text)
    errors = [line for line in text.splitlines() if ": error " in line]
    if run.returncode != 0:
        errors.append("sarif-multitool exited with %d" % run.returncode)
    if "1 files scanned" not in text and "1 file scanned" not in text:
        errors.append("sarif-multitool did not scan the file")
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            log = json.load(f)
        for r in log.get("runs", [{}])[0].get("results", []):
            if r.get("level") == "error":
                errors.append("%s: %s" % (r.get("ruleId"), r.get("message", {}).get("text", "")))
    return errors


def schema_errors(prefix, path):
    import jsonschema
    with open(os.path.join(tool_dir(prefix), "sarif-2.1.0.json"), encoding="utf-8") as f:
        schema = json.load(f)
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message) for e in validator.iter_errors(log)]


def check(prefix, mpsready, out_dir, inputs):
    os.makedirs(out_dir, exist_ok=True)
    failed = False
    for item in inputs:
        path = item
        if os.path.isdir(item):
            path = os.path.join(out_dir, os.path.basename(os.path.normpath(item)) + ".sarif")
            code = subprocess.call([mpsready, "scan", item, "--format", "sarif", "-o", path])
            if code != 0:
                print("mpsready scan %s exited with %d" % (item, code))
                failed = True
                continue
        errors = multitool_errors(prefix, path, out_dir) + schema_errors(prefix, path)
        for e in errors:
            print("%s: %s" % (path, e))
        failed |= bool(errors)
        print("%s: %s" % (path, "INVALID" if errors else "valid"))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "install":
        sys.exit(install(sys.argv[2]))
    if len(sys.argv) >= 6 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)

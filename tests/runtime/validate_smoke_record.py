"""Runs `mpsready smoke` (and `audit`) on the test models and validates every record against
docs/smoke-record.schema.json with Debian's python3-jsonschema.

Usage: validate_smoke_record.py MPSREADY MAKE_TEST_MODELS SOURCE_DIR OUT_DIR

The models are built by make_test_models (TorchScript modules defined from source in C++), so
this needs no Python PyTorch. Beyond the schema, every memory measurement must have a peak at
least its current value, and a run without --out-dir must leave its working directory empty. A
broken record must be rejected too, or the check proves nothing.
"""
import json
import pathlib
import shutil
import subprocess
import sys

import jsonschema

mpsready, make_models, source, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4])
shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)
subprocess.run([make_models, str(out / "models")], check=True, stdout=subprocess.DEVNULL)
models = out / "models"

schema = json.loads((source / "docs/smoke-record.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

quick = ["--iterations", "2", "--warmup", "1", "--growth-iterations", "3", "--profile-steps", "1",
         "--out-dir", str(out / "run"), "--format", "json"]
golden = str(out / "golden.json")
runs = {
    "clean": (["smoke", str(models / "clean.pt"), "--input", "4x8:float32"], 0),
    "nan": (["smoke", str(models / "nan.pt"), "--input", "4x8:float32", "--no-fresh-process"], 1),
    "float64": (["smoke", str(models / "float64.pt"), "--input", "4x8:float32", "--no-fresh-process"], 0),
    "train-sweep-record": (["smoke", str(models / "dict.pt"), "--input", "4x8:float32", "--train", "--sweep", "1,2,4",
                            "--record", golden, "--no-fresh-process"], 0),
    "compare": (["smoke", str(models / "dict.pt"), "--input", "4x8:float32", "--compare", golden,
                 "--no-fresh-process"], 0),
    "wrong-shape": (["smoke", str(models / "clean.pt"), "--input", "4x3:float32", "--no-fresh-process"], 1),
}

def memory_errors(record):
    """Measurements whose peak is below their current value (JSON Schema cannot compare two fields)."""
    measured = [("step", record["step"])] + [(f"sweep batch {r['batch_size']}", r) for r in record["sweep"]["rows"]]
    return [f"{where}: peak_bytes {m['memory']['peak_bytes']} < current_bytes {m['memory']['current_bytes']}"
            for where, m in measured
            if m["memory"] is not None and m["memory"]["peak_bytes"] < m["memory"]["current_bytes"]]


failures = 0
records = {}
for name, (args, expected) in runs.items():
    proc = subprocess.run([mpsready, *args, *quick], capture_output=True, text=True)
    if proc.returncode != expected:
        print(f"{name}: exit {proc.returncode}, expected {expected}\n{proc.stderr}")
        failures += 1
        continue
    record = json.loads(proc.stdout)
    records[name] = record
    for error in validator.iter_errors(record):
        failures += 1
        print(f"{name}: {'/'.join(map(str, error.path)) or '(top)'}: {error.message}")
    for error in memory_errors(record):
        failures += 1
        print(f"{name}: {error}")
    if record["confirmation"]["status"] != "unconfirmed":
        failures += 1
        print(f"{name}: no MPS device here, yet the record says {record['confirmation']['status']}")

# The audit's embedded smoke record follows the same schema.
proc = subprocess.run([mpsready, "audit", str(source / "sample_repos/mnist-mps-ready"), "--model",
                       str(models / "clean.pt"), "--input", "2x8:float32", "--no-fresh-process", *quick],
                      capture_output=True, text=True)
if proc.returncode != 0:
    failures += 1
    print(f"audit: exit {proc.returncode}\n{proc.stderr}")
else:
    for error in validator.iter_errors(json.loads(proc.stdout)["smoke"]):
        failures += 1
        print(f"audit/smoke: {'/'.join(map(str, error.path)) or '(top)'}: {error.message}")

# Without --out-dir a run writes nothing: its working directory stays empty.
cwd = out / "cwd"
cwd.mkdir()
no_files = [a for a in quick if a not in ("--out-dir", str(out / "run"))]
proc = subprocess.run([mpsready, "smoke", str(models / "clean.pt"), "--input", "4x8:float32", *no_files],
                      capture_output=True, text=True, cwd=cwd)
if proc.returncode != 0:
    failures += 1
    print(f"no-out-dir: exit {proc.returncode}\n{proc.stderr}")
else:
    for error in validator.iter_errors(json.loads(proc.stdout)):
        failures += 1
        print(f"no-out-dir: {'/'.join(map(str, error.path)) or '(top)'}: {error.message}")
    if any(cwd.iterdir()):
        failures += 1
        print(f"no-out-dir: the run wrote {sorted(p.name for p in cwd.iterdir())} into its working directory")

# The schema must reject a record that claims an MPS result on the CPU.
if "clean" in records:
    forged = json.loads(json.dumps(records["clean"]))
    forged["confirmation"]["status"] = "confirmed"
    if validator.is_valid(forged):
        failures += 1
        print("the schema accepted a CPU record that claims confirmation")

    # A timing that did not run is null: a 0.0 in its place is rejected.
    forged = json.loads(json.dumps(records["clean"]))
    forged["step"]["ran"] = False
    if validator.is_valid(forged):
        failures += 1
        print("the schema accepted a step that did not run yet has a step time")
    forged = json.loads(json.dumps(records["clean"]))
    forged["step"]["memory"]["peak_bytes"] = forged["step"]["memory"]["current_bytes"] - 1
    if not memory_errors(forged):
        failures += 1
        print("the check accepted a peak below the current value")

print(f"{len(runs) + 2} runs, {failures} failures")
sys.exit(1 if failures else 0)

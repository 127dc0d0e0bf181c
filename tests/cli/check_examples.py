#!/usr/bin/python3
"""Checks the CI recipes: examples/*.yml, action.yml and .pre-commit-hooks.yaml are valid YAML;
every `mpsready scan` option they use is one the binary accepts (`mpsready scan --help`); the
example workflow passes only inputs the Action has; the pre-commit hook runs the scan on the
files a commit can change the verdict with.

usage: check_examples.py MPSREADY_BIN EXAMPLES_DIR   (the repository root is EXAMPLES_DIR/..)
"""
import os
import re
import subprocess
import sys

import yaml

failed = []


def fail(message):
    failed.append(message)
    print(message)


def check_options(path, lines, known):
    for line in lines:
        for option in re.findall(r"(?<=[\s(])--[a-z][a-z-]*", line):
            if option not in known:
                fail("%s: unknown option %s in: %s" % (path, option, line.strip()))


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return text, yaml.safe_load(text)
    except yaml.YAMLError as e:
        fail("%s: not valid YAML: %s" % (path, e))
        return text, None


def check_action(root, known):
    path = os.path.join(root, "action.yml")
    text, action = load(path)
    if action is None:
        return {}
    inputs = action.get("inputs", {})
    for name in ("path", "fail-on", "diff-base", "format", "comment"):
        if name not in inputs:
            fail("%s: no input %s" % (path, name))
    scan = [s for s in action["runs"]["steps"] if s.get("id") == "scan"]
    if not scan:
        fail("%s: no step with id scan" % path)
    else:
        check_options(path, scan[0]["run"].splitlines(), known)
    return inputs


def check_hooks(root, known):
    path = os.path.join(root, ".pre-commit-hooks.yaml")
    _, hooks = load(path)
    if hooks is None:
        return set()
    ids = {h["id"]: h for h in hooks}
    hook = ids.get("mpsready")
    if hook is None:
        fail("%s: no hook with id mpsready" % path)
        return set(ids)
    if hook.get("language") not in ("system", "docker", "docker_image"):
        fail("%s: language %s" % (path, hook.get("language")))
    if not hook["entry"].startswith("mpsready scan") or "--diff HEAD" not in hook["entry"]:
        fail("%s: entry is not `mpsready scan --diff HEAD ...`: %s" % (path, hook["entry"]))
    check_options(path, [" " + hook["entry"]], known)
    files = re.compile(hook["files"])
    for name in ("train.py", "pkg/model.pyi", "notebooks/a.ipynb", "csrc/k.cu", "csrc/k.cuh", "src/x.cpp",
                 "requirements.txt", "requirements-dev.txt", "reqs/requirements.in", "environment.yml",
                 "conda/environment-gpu.yaml", "Dockerfile", "docker/Dockerfile.cuda", "gpu.Dockerfile",
                 "CMakeLists.txt", "cmake/torch.cmake", "pyproject.toml", "setup.cfg", "jobs/train.slurm",
                 ".mpsready.json"):
        if not files.search(name):
            fail("%s: files pattern misses %s" % (path, name))
    for name in ("README.md", "docs/index.rst", "LICENSE"):
        if files.search(name):
            fail("%s: files pattern matches %s" % (path, name))
    return set(ids)


def main(binary, examples):
    root = os.path.dirname(os.path.abspath(examples))
    help_text = subprocess.run([binary, "scan", "--help"], capture_output=True, text=True).stdout
    known = set(re.findall(r"--[a-z][a-z-]*", help_text))
    inputs = check_action(root, known)
    hook_ids = check_hooks(root, known)
    for name in sorted(os.listdir(examples)):
        if not name.endswith((".yml", ".yaml")):
            continue
        path = os.path.join(examples, name)
        text, doc = load(path)
        check_options(path, [l for l in text.splitlines() if "mpsready scan" in l], known)
        if doc is None:
            continue
        for job in (doc.get("jobs") or {}).values():
            for step in job.get("steps", []):
                if re.search(r"/mpsready@", step.get("uses", "")):
                    for key in step.get("with", {}):
                        if key not in inputs:
                            fail("%s: the Action has no input %s" % (path, key))
        for repo in doc.get("repos", []) if isinstance(doc, dict) else []:
            for hook in repo.get("hooks", []):
                if repo.get("repo") != "local" and hook["id"] not in hook_ids:
                    fail("%s: .pre-commit-hooks.yaml has no hook %s" % (path, hook["id"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

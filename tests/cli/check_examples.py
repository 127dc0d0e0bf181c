#!/usr/bin/python3
"""Checks the examples/ recipes: valid YAML, and every `mpsready scan` option they use is one the
binary accepts (`mpsready scan --help`).

usage: check_examples.py MPSREADY_BIN EXAMPLES_DIR
"""
import os
import re
import subprocess
import sys

import yaml


def main(binary, examples):
    help_text = subprocess.run([binary, "scan", "--help"], capture_output=True, text=True).stdout
    known = set(re.findall(r"--[a-z][a-z-]*", help_text))
    failed = False
    for name in sorted(os.listdir(examples)):
        if not name.endswith((".yml", ".yaml")):
            continue
        path = os.path.join(examples, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            yaml.safe_load(text)
        except yaml.YAMLError as e:
            print("%s: not valid YAML: %s" % (path, e))
            failed = True
        for line in text.splitlines():
            if "mpsready scan" not in line:
                continue
            for option in re.findall(r"(?<=\s)--[a-z][a-z-]*", line):
                if option not in known:
                    print("%s: unknown option %s in: %s" % (path, option, line.strip()))
                    failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

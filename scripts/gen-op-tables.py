#!/usr/bin/env python3
"""Reduces PyTorch's native_functions.yaml to the op-status table mpsready ships.

    scripts/gen-op-tables.py YAML --version V [--commit SHA] [--from TEXT] [-o FILE]
    scripts/gen-op-tables.py YAML --check FILE      # exit 1 when FILE is not what YAML gives

The table keeps, for each operator overload, only the facts that decide its MPS status
(scanner/ops/native_functions.cpp reads the yaml and the table into the same entries):

    op          name.overload ("name" for the default overload)
    variants    "m" when `variants` includes method, else "-"
    dispatch    the dispatch keys that matter, comma-separated: MPS CPU CUDA and the composite
                keys (CEA = CompositeExplicitAutograd, CEANF = CompositeExplicitAutogradNonFunctional,
                CIA = CompositeImplicitAutograd); "other" stands for any other key; "-" for an entry
                without a dispatch section, "none" for an empty one
    delegate    structured_delegate, or "-"
    autogen     the ops generated from this one (`autogen: a.out, b.out`), comma-separated, or "-"
    out         for a functional op (no mutable argument), its out= overload: same name, same
                arguments once the keyword-only mutable Tensor arguments are removed; or "-"

Header lines start with "#"; the "# key: value" ones record the source (PyTorch version, commit,
sha256 of the yaml). Only the Python standard library and PyYAML (Debian's python3-yaml) are used.
"""
import argparse
import hashlib
import re
import sys

import yaml

FORMAT = "mpsready op-status table 1"
KEY_NAMES = {
    "MPS": "MPS",
    "CPU": "CPU",
    "CUDA": "CUDA",
    "CompositeExplicitAutograd": "CEA",
    "CompositeExplicitAutogradNonFunctional": "CEANF",
    "CompositeImplicitAutograd": "CIA",
}
KEY_ORDER = ["MPS", "CPU", "CUDA", "CEA", "CEANF", "CIA", "other"]
SCHEMA_HEAD = re.compile(r"^[A-Za-z0-9_.]+$")
ANNOTATION = re.compile(r"\([^)]*\)")


def split_top_level(text):
    """Splits at commas outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_func(func):
    """(name, overload, args) where args is a list of (type, name, keyword_only)."""
    paren = func.find("(")
    head = func[:paren].strip()
    if paren <= 0 or not SCHEMA_HEAD.match(head):
        raise ValueError("not an operator schema: " + func)
    name, _, overload = head.partition(".")
    depth, end = 0, -1
    for i in range(paren, len(func)):
        if func[i] == "(":
            depth += 1
        elif func[i] == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    args, keyword_only = [], False
    for piece in split_top_level(func[paren + 1:end]):
        if piece == "*":
            keyword_only = True
            continue
        declaration = piece.split("=", 1)[0].strip()
        arg_type, _, arg_name = declaration.rpartition(" ")
        args.append((arg_type, arg_name, keyword_only))
    return name, overload, args


def is_out_arg(arg):
    return arg[2] and "!" in arg[0]


def functional_signature(args):
    return tuple((ANNOTATION.sub("", t), n) for t, n, _ in args if not is_out_arg((t, n, _)))


def split_commas(value):
    return [p.strip() for p in str(value).split(",") if p.strip()]


def reduce_entries(entries):
    rows, index, signatures = [], {}, {}
    for entry in entries:
        name, overload, args = parse_func(entry["func"])
        key = name + "." + overload if overload else name
        if key in index:  # the first definition wins, as in the C++ reader
            continue
        dispatch = entry.get("dispatch")
        keys = None
        if dispatch is not None:
            keys = set()
            for k in dispatch:
                for part in split_commas(k):
                    keys.add(KEY_NAMES.get(part, "other"))
        row = {
            "key": key,
            "name": name,
            "method": "method" in split_commas(entry.get("variants", "")),
            "dispatch": keys,
            "delegate": entry.get("structured_delegate") or "",
            "autogen": split_commas(entry.get("autogen", "")),
            "out": "",
        }
        mutable = any("!" in t for t, _, _ in args)
        is_out = any(is_out_arg(a) for a in args) and not name.endswith("_")
        row["functional"] = not mutable
        if is_out:
            signatures.setdefault((name, functional_signature(args)), key)
        row["signature"] = functional_signature(args)
        index[key] = len(rows)
        rows.append(row)
    for row in rows:
        if row["functional"]:
            row["out"] = signatures.get((row["name"], row["signature"]), "")
    return rows


def render(rows, version, commit, origin, sha256):
    lines = [
        "# " + FORMAT,
        "# Generated by scripts/gen-op-tables.py from PyTorch's native_functions.yaml; do not edit.",
        "# Columns: op, variants (m = method), dispatch keys (CEA CompositeExplicitAutograd, CEANF",
        "# CompositeExplicitAutogradNonFunctional, CIA CompositeImplicitAutograd, other = any other key,",
        "# - = no dispatch section, none = an empty one), structured_delegate, autogen, out= overload of a functional op.",
        "# pytorch: " + version,
    ]
    if commit:
        lines.append("# commit: " + commit)
    if origin:
        lines.append("# from: " + origin)
    lines.append("# sha256: " + sha256)
    for row in rows:
        keys = "-" if row["dispatch"] is None else ",".join(k for k in KEY_ORDER if k in row["dispatch"]) or "none"
        lines.append("\t".join([
            row["key"], "m" if row["method"] else "-", keys, row["delegate"] or "-",
            ",".join(row["autogen"]) or "-", row["out"] or "-",
        ]))
    return "\n".join(lines) + "\n"


def header_value(text, key):
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if line.startswith("# " + key + ": "):
            return line[len(key) + 4:]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("yaml")
    parser.add_argument("--version", help="the PyTorch version the yaml belongs to")
    parser.add_argument("--commit", help="the PyTorch commit (torch.version.git_version)")
    parser.add_argument("--from", dest="origin", help="where the yaml came from (a package, a wheel)")
    parser.add_argument("-o", "--output", help="write the table here (default: stdout)")
    parser.add_argument("--check", metavar="TABLE", help="compare with TABLE, taking its version, commit and origin")
    args = parser.parse_args()

    with open(args.yaml, "rb") as f:
        data = f.read()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    entries = yaml.load(data, Loader=loader)
    if not isinstance(entries, list):
        sys.exit(args.yaml + ": not a native_functions.yaml (not a list of entries)")
    rows = reduce_entries(entries)
    sha256 = hashlib.sha256(data).hexdigest()

    if args.check:
        with open(args.check, encoding="utf-8") as f:
            committed = f.read()
        version = header_value(committed, "pytorch") or ""
        made = render(rows, version, header_value(committed, "commit"), header_value(committed, "from"), sha256)
        if made != committed:
            sys.stderr.write(args.check + " is not what " + args.yaml + " gives (sha256 " + sha256 + "); regenerate it\n")
            return 1
        print(args.check + ": reproduced from " + args.yaml + " (" + str(len(rows)) + " ops)")
        return 0
    if not args.version:
        parser.error("--version is required")
    table = render(rows, args.version, args.commit, args.origin, sha256)
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(table)
    else:
        sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

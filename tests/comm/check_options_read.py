#!/usr/bin/env python3
"""Every CommOptions field means the same to the runtime and to jackdaw-sim: each one is read by the
steal protocol they share (comm/src/steal_protocol.cpp, or the sleep rules in comm_options.hpp
that it calls), or is marked [transport] in comm_options.hpp (read by the MPI transport only).

  check_options_read.py SOURCE_DIR    exit 1 naming every field neither read nor marked
  check_options_read.py --self-test   a planted unread field must be caught
"""
import os
import re
import sys
import tempfile

FIELD = re.compile(r"^\s*(?:[\w:<>]+\*?)\s+(.+?);(.*)$")


def fields(options_text):
    """(name, marked) for each field declared in struct CommOptions."""
    body = options_text.split("struct CommOptions {", 1)[1].split("\n};", 1)[0]
    out = []
    for line in body.splitlines():
        if line.strip().startswith("//") or not line.strip():
            continue
        m = FIELD.match(line)
        if not m:
            continue
        decl, comment = m.group(1), m.group(2)
        # "a{1}, b{2}" or "x = 1": the names before each initialiser
        for part in re.split(r",(?![^{]*})", decl):
            name = re.match(r"\s*(\w+)", part)
            if name:
                out.append((name.group(1), "[transport]" in comment))
    return out


def problems(root):
    opts_path = os.path.join(root, "comm/include/jackdaw/comm/comm_options.hpp")
    proto_path = os.path.join(root, "comm/src/steal_protocol.cpp")
    opts = open(opts_path, encoding="utf-8").read()
    proto = open(proto_path, encoding="utf-8").read()
    # The sleep rules after the struct read their options as `o.field`.
    rules = opts.split("\n};", 1)[1]
    found = fields(opts)
    if len(found) < 10:
        return [f"only {len(found)} fields parsed from {opts_path}: the parser is out of date"]
    out = []
    for name, marked in found:
        read = re.search(r"\bo_?\." + name + r"\b", proto) or re.search(r"\bo\." + name + r"\b", rules)
        if not read and not marked:
            out.append(f"CommOptions::{name} is read neither by the steal protocol nor marked [transport]")
        if read and marked:
            out.append(f"CommOptions::{name} is marked [transport] but the steal protocol reads it")
    return out


def self_test():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", ".."))
    with tempfile.TemporaryDirectory() as tmp:
        for rel in ("comm/include/jackdaw/comm/comm_options.hpp", "comm/src/steal_protocol.cpp"):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            text = open(os.path.join(root, rel), encoding="utf-8").read()
            if rel.endswith("comm_options.hpp"):
                text = text.replace("struct CommOptions {", "struct CommOptions {\n  int plantedUnread = 3;  // nobody reads it", 1)
            open(os.path.join(tmp, rel), "w", encoding="utf-8").write(text)
        found = problems(tmp)
        if not any("plantedUnread" in p for p in found):
            print("self-test: a planted unread field was not caught", file=sys.stderr)
            return 1
    print("self-test: planted unread field caught")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    found = problems(sys.argv[1])
    for p in found:
        print(p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

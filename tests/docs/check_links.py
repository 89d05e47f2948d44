#!/usr/bin/env python3
"""Every relative link in the documentation leads somewhere: the file (or folder) exists inside the
repository, and a #fragment names a heading of the Markdown file it points into (GitHub's anchor
rules). Links inside code spans and fenced blocks are not links.

  check_links.py REPO_ROOT [FILE.md ...]   (default: README.md, docs/*.md, bench/results/*.md)
  check_links.py --self-test               (the checker finds planted broken links)

Exit 1, listing each broken link as FILE:LINE: TARGET: why, if any is broken."""
import os
import re
import sys
import tempfile

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def anchors(path):
    """The anchors GitHub gives the headings of a Markdown file."""
    seen, out = {}, set()
    fenced = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))  # a link in a heading: its text
            slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path):
    fenced = False
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                yield no, m.group(1)


def default_files(root):
    files = ["README.md"]
    for folder in ("docs", os.path.join("bench", "results")):
        full = os.path.join(root, folder)
        if os.path.isdir(full):
            files += sorted(os.path.join(folder, n) for n in os.listdir(full) if n.endswith(".md"))
    return files


def check(root, files):
    """Prints each broken link; returns (links checked, broken)."""
    root = os.path.realpath(root)
    bad = checked = 0
    for rel in files:
        path = os.path.join(root, rel)
        for no, target in links(path):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:, ...
                continue
            checked += 1
            file_part, _, fragment = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            why = None
            if not os.path.exists(dest):
                why = "no such file"
            elif not os.path.realpath(dest).startswith(root + os.sep):
                why = "outside the repository"
            elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
                why = f"no heading with anchor #{fragment}"
            if why:
                print(f"{rel}:{no}: {target}: {why}")
                bad += 1
    return checked, bad


def self_test():
    with tempfile.TemporaryDirectory() as d:
        repo = os.path.join(d, "repo")
        os.makedirs(os.path.join(repo, "docs"))
        with open(os.path.join(d, "outside.md"), "w") as f:
            f.write("# Outside\n")
        with open(os.path.join(repo, "docs", "a.md"), "w") as f:
            f.write("# A\n## Two `words` here\n## Two `words` here\n")
        with open(os.path.join(repo, "README.md"), "w") as f:
            f.write("[ok](docs/a.md#two-words-here) [ok](docs/a.md#two-words-here-1) [ok](docs/) "
                    "[ok](https://example.org/x.md) `[code](gone.md)` [ok](#readme)\n# README\n"
                    "[bad](docs/gone.md)\n[bad](docs/a.md#nowhere)\n[bad](../outside.md)\n"
                    "```\n[code](gone.md)\n```\n")
        checked, bad = check(repo, ["README.md"])
        if (checked, bad) != (7, 3):
            print(f"self-test FAILED: {checked} links checked and {bad} broken, expected 7 and 3")
            return 1
    print("self-test: the three planted broken links were found")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = sys.argv[2:] or default_files(root)
    checked, bad = check(root, files)
    print(f"{checked} relative links checked in {len(files)} files, {bad} broken")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

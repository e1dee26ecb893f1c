#!/usr/bin/env python3
"""Stale paths: a comment or README that names a file of this repository which does not exist (it was moved,
renamed or deleted and the text was not). Reads every tracked source, CMake, script and Markdown file; a
name counts as a repository path when it has a folder and a file extension (`report/dot.hpp`,
`tests/cli/cross_exe.cmake`), and it exists when it is the tail of a tracked file's path (`model/demand.hpp`
from src/README.md, `cli/cross_exe.cmake` from tests/README.md) or resolves, against the repository root or the
naming file's folder, to a file that exists (one the build generates). Paths of other places are left alone: the installed layout (usr/, share/, …), ../shared, other
projects' trees quoted in the fixtures' provenance, system headers (`<nlohmann/json.hpp>`), and names with
placeholders (`*`, `<x>`, `{a,b}`).

  stale_paths.py REPO     exit 1 and one line per stale path (file:line: path), else 0
"""
import os
import re
import subprocess
import sys

EXTENSIONS = ("cpp", "hpp", "py", "sh", "cmake", "md", "json", "txt", "yml", "xml", "h2m", "in")
PATH = re.compile(r"(?<![\w./$@%~:<-])((?:[\w-]+/)+[\w-]+(?:\.[\w-]+)*\.(?:" + "|".join(EXTENSIONS) + r"))(?![\w/])")
SCANNED = (".md", ".cpp", ".hpp", ".py", ".sh", ".cmake", ".txt", ".yml")
# Paths that name other places on purpose, each with why.
ELSEWHERE = (
    "usr/",  # the installed layout (the .deb, cmake --install)
    "share/",  # the same, relative to the install prefix
    "shared/",  # ../shared beside the repository (fixtures, STYLE.md)
    "no-such-",  # bad-input tests name missing files on purpose
    "img/",  # a USBView report's place on the site it was published on (tests/fixtures/windows/README.md)
)


def stale(text, naming_file, exists, tracked_tails):
    """The (line, path) pairs of `text` (the contents of `naming_file`) that name no file: `exists(p)` says
    whether a repository-relative path exists, `tracked_tails` holds every suffix of a tracked path."""
    found = []
    for m in PATH.finditer(text):
        path = m.group(1)
        if path.startswith(ELSEWHERE) or any(c in path for c in "*<>{}"):
            continue
        if path in tracked_tails or exists(path) or exists(os.path.join(os.path.dirname(naming_file), path)):
            continue
        found.append((text.count("\n", 0, m.start()) + 1, path))
    return found


def tails(paths):
    """Every folder-boundary suffix of each path: the whole path, then without its first folder, and so on."""
    out = set()
    for p in paths:
        parts = p.split("/")
        out.update("/".join(parts[i:]) for i in range(len(parts)))
    return out


def scanned(path):
    """Sources, scripts and documents are read; goldens, fixtures' data (recorded text of other tools) and the
    tables of the checks' self-tests (tests/support/*_test.py), whose paths are made-up examples, not."""
    return (path.endswith(SCANNED) and "/golden/" not in path and not path.startswith("tests/fixtures/windows/img")
            and not (path.startswith("tests/support/") and path.endswith("_test.py")))  # checks' tables: examples


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    repo = argv[1]
    listing = subprocess.run(["git", "-C", repo, "ls-files"], capture_output=True, text=True, check=True)
    files = listing.stdout.split()
    known = tails(files)
    bad = []
    for f in filter(scanned, files):
        try:
            with open(os.path.join(repo, f), encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError):
            continue
        for line, path in stale(text, f, lambda p: os.path.exists(os.path.join(repo, p)), known):
            bad.append(f"{f}:{line}: {path} does not exist")
    print("\n".join(bad) if bad else f"no stale paths in {sum(map(scanned, files))} files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

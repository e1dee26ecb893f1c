#!/usr/bin/env python3
"""Table test of stale_paths.py: each text, named in a file, with the stale paths it must report, as
(line, path), against a fixed set of existing files. Exit 0 when every row matches, 1 otherwise."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stale_paths import stale, tails  # noqa: E402
from table_test import report  # noqa: E402

FILES = ["src/cli/main.cpp", "src/analysis/model/demand.hpp", "tests/cli/cross_exe.cmake", "report/dot.hpp"]
EXISTS = set(FILES) | {"build/gen/out.json"}

ROWS = [
    ("a path from the root", "README.md", "see `report/dot.hpp` for it", []),
    ("a moved file", "load/errors.hpp", "/// caught only in src/main.cpp (exit 3)\n", [(1, "src/main.cpp")]),
    ("the line of the second of two", "x.md", "report/dot.hpp\n\ntests/cli/windows_exe.cmake\n",
     [(3, "tests/cli/windows_exe.cmake")]),
    ("relative to the naming file's folder", "tests/README.md", "(`cli/cross_exe.cmake`)", []),
    ("a generated file that exists", "f.md", "build/gen/out.json", []),
    ("a generated file beside the naming file", "build/g.md", "gen/out.json", []),
    ("the tail of a tracked path", "src/README.md", "model/demand.hpp", []),
    ("a tail that is no file's", "src/README.md", "model/supply.hpp", [(1, "model/supply.hpp")]),
    ("a system header", "a.cpp", "#include <nlohmann/json.hpp>\n", []),
    ("the installed layout and ../shared", "b.py", "usr/share/usbsat/x.json ../shared/STYLE.md", []),
    ("placeholders", "c.md", "`build/fixtures/sysfs/<scenario>.json`, `tests/*/x.py`", []),
    ("no folder, no extension: not a path", "d.md", "dot.hpp and/or src/cli", []),
    ("a URL's path is not ours", "e.md", "https://example.org/a/b.md", []),
]


def main():
    known = tails(FILES)
    return report([(what, stale(text, naming, EXISTS.__contains__, known), want)
                   for what, naming, text, want in ROWS])


if __name__ == "__main__":
    sys.exit(main())

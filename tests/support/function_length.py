#!/usr/bin/env python3
"""No function over 80 lines (issue 22): every function body in the C++ sources under src, topology, load and
report, with its name, file and line count.

    function_length.py ROOT [--limit N]

A function's length is the lines from the line of its body's opening brace to the line of its closing brace,
both included, minus the lines of data tables inside it. Lambdas and local classes count toward the function
that holds them. Braces are matched after string literals (also raw strings), character literals, comments
and preprocessor lines are blanked, so a '{' in a string or a comment does not count.

What is a table: a braced initializer list whose direct elements include two or more braced lists (rows),
`{{"uring", ...}, {"sync", ...}}` or `kRows[] = {{...}, {...}}`. Its lines (those strictly between its braces)
are data, not code, and do not count. Tests are not scanned (they live under tests/, which is not scanned), nor
are files whose name ends in _test.cpp.

There is no allowlist: exit 0 when no function is over the limit, 1 otherwise (each one named).
"""
import argparse
import os
import re
import sys

SCANNED = ("src", "topology", "load", "report")
EXTENSIONS = (".cpp", ".hpp", ".h", ".cc")
NOT_A_FUNCTION = re.compile(r"^\s*(?:template\s*<.*>\s*)?(?:namespace|class|struct|union|enum|extern)\b")
CONTROL = re.compile(r"^\s*(?:if|for|while|switch|catch|do|else|try|return)\b")
INIT_BEFORE = set("=,{([")
QUALIFIERS = {"const", "override", "final", "noexcept", "mutable", "try", "volatile"}


def blank(text):
    """`text` with comments, string and character literals and preprocessor lines replaced by spaces (newlines
    kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
                                                          or text[i - 1] in "Lu8U"):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")  # a digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_access(header):
    """`header` without access specifiers and attributes, trimmed."""
    h = re.sub(r"\b(?:public|private|protected)\s*:(?!:)", " ", header)
    return re.sub(r"\[\[.*?\]\]", " ", h).strip()


def function_name(header):
    """The name in a function's header (the text from the previous ';', '{' or '}' to its body), or None when
    the header is not a function's."""
    h = strip_access(header)
    if not h or "(" not in h or NOT_A_FUNCTION.match(h) or CONTROL.match(h):
        return None
    m = re.search(r"(operator\s*(?:\(\)|[^\s(]+))\s*\(", h)
    if m:
        return re.search(r"([\w:~]*operator)", h).group(1) + m.group(1)[len("operator"):].strip()
    m = re.match(r"^(?:[^=(]*?)([~\w:]+)\s*(?:<[^()]*>)?\s*\(", h)
    if m and "=" not in h[: m.start(1)]:
        return m.group(1)
    m = re.match(r"^[^=]*?(\w+)\s*=\s*\[", h)  # a lambda at namespace scope: named after its variable
    return m.group(1) if m else None


def after_signature(header):
    """True when a '{' that follows a word or '>' still opens a body: after a qualifier (`const`, `override`,
    `noexcept`...) or a trailing return type (`-> std::vector<int>`); else the '{' is a brace initializer
    (`b_{b}` in a constructor's initializer list, `std::vector<int>{}`)."""
    word = re.search(r"(\w+)\s*$", header)
    if word and word.group(1) in QUALIFIERS:
        return True
    close = header.rfind(")")
    return close >= 0 and "->" in header[close:]


def functions(text):
    """(name, first line, lines) of every function body in `text` (already blanked)."""
    found = []
    stack = []  # per open brace: dict(kind=function|init|other, line, children, table_lines)
    header_start = 0
    line = 1
    prev_sig = ""  # the last non-space character before the current one
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
            continue
        if c == "{":
            in_function = any(b["kind"] == "function" for b in stack)
            parent = stack[-1] if stack else None
            before = text[header_start:i]
            returns = re.search(r"\breturn\s*$", before) is not None
            if not in_function and NOT_A_FUNCTION.match(strip_access(before)):
                kind = "other"  # a namespace, class, struct, union or enum body
            elif prev_sig in INIT_BEFORE or returns or (prev_sig.isalnum() or prev_sig in "_>") and not in_function \
                    and not after_signature(before):
                kind = "init"
            elif in_function:
                kind = "block"
            else:
                name = function_name(before)
                kind = "function" if name else "other"
            if kind == "init" and parent is not None and parent["kind"] == "init":
                parent["children"] += 1
            stack.append({"kind": kind, "line": line, "children": 0, "table_lines": 0,
                          "name": function_name(before) if kind == "function" else None})
            if kind != "init":
                header_start = i + 1
        elif c == "}" and stack:
            b = stack.pop()
            inner = max(0, line - b["line"] - 1)
            if b["kind"] == "init" and b["children"] >= 2:
                b["table_lines"] = inner  # a table: its rows are data
            if b["kind"] == "function":
                found.append((b["name"], b["line"], line - b["line"] + 1 - b["table_lines"]))
            elif stack:
                stack[-1]["table_lines"] += b["table_lines"]
            if b["kind"] != "init":
                header_start = i + 1
        elif c == ";" and not (stack and stack[-1]["kind"] == "init"):
            header_start = i + 1
        if not c.isspace():
            prev_sig = c
    return found


def source_files(root):
    """(path, path relative to `root` with '/') of every C++ source under SCANNED, tests (*_test.cpp) left out;
    also the file list of phrase_check.py."""
    for top in SCANNED:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith(EXTENSIONS) and not f.endswith("_test.cpp"):
                    path = os.path.join(d, f)
                    yield path, os.path.relpath(path, root).replace(os.sep, "/")


def scan(root, limit):
    over = []
    for path, rel in source_files(root):
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = blank(fh.read())
        for name, first, lines in functions(text):
            if lines > limit:
                over.append((rel, name, first, lines))
    return sorted(over)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--limit", type=int, default=80)
    a = ap.parse_args()
    over = scan(a.root, a.limit)
    for rel, name, first, lines in over:
        print(f"FAIL: {name} ({rel}:{first}) is {lines} lines, over {a.limit}")
    print(f"{len(over)} function(s) over {a.limit} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

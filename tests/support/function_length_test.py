#!/usr/bin/env python3
"""Table test of function_length.py's counting: each C++ snippet with the functions it must find, as
(name, first line, lines). Exit 0 when every row matches, 1 otherwise."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from function_length import blank, functions  # noqa: E402
from table_test import report  # noqa: E402

ROWS = [
    ("a plain function", "int f(int a) {\n  return a;\n}\n", [("f", 1, 3)]),
    ("braces in strings, characters, comments and raw strings do not count",
     'void f() {\n  g("{{", \'{\');  // {\n  /* { */ h(R"x({)x");\n}\n', [("f", 1, 4)]),
    ("a constructor whose initializer list holds a brace initializer",
     "class W {\n public:\n  W(int b)\n      : a_(b),\n        b_{b} {\n    x();\n  }\n};\n", [("W", 5, 3)]),
    ("a method with qualifiers and a trailing return type",
     "struct S {\n  auto f() const noexcept -> std::vector<int> {\n    return {};\n  }\n};\n", [("f", 2, 3)]),
    ("a qualified definition and an operator",
     "int A::b() {\n  return 1;\n}\nbool operator==(X a, X b) {\n  return a.v == b.v;\n}\n",
     [("A::b", 1, 3), ("operator==", 4, 3)]),
    ("a lambda and control blocks count toward their function",
     "void f() {\n  auto g = [](int x) {\n    return x;\n  };\n  if (g(1)) {\n    h();\n  }\n}\n", [("f", 1, 8)]),
    ("a table's rows do not count, its braces do",
     "const Row* rows() {\n  static const Row r[] = {\n      {1, 2},\n      {3, 4},\n      {5, 6},\n  };\n  return r;\n}\n",
     [("rows", 1, 5)]),
    ("one braced list is not a table", "int f() {\n  int v[] = {\n      1,\n      2,\n  };\n  return v[0];\n}\n",
     [("f", 1, 7)]),
    ("namespaces, classes, enums and tables at namespace scope are not functions",
     "namespace a {\nenum class E { X, Y };\nconstexpr Row kRows[] = {{1, 2}, {3, 4}};\nstruct S {\n  int x;\n};\n}\n", []),
    ("a declaration ends a header; preprocessor lines are blanked",
     "int g(int);\n#define F(x) { x }\nint f() {\n  return g(1);\n}\n", [("f", 3, 3)]),
]


def main():
    return report([(what, functions(blank(code)), want) for what, code, want in ROWS])


if __name__ == "__main__":
    sys.exit(main())

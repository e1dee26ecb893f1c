#!/bin/sh
# format.check: every C++ source that git tracks is formatted as the project's .clang-format says.
#   format_check.sh SRC_DIR [CLANG_FORMAT]
# Fix with: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
# Exit 77 (skip) when clang-format is missing; 1 with the offending files' first diagnostics otherwise.
set -eu
src=$1
cf=${2:-clang-format}
command -v "$cf" >/dev/null 2>&1 || { echo "SKIP: $cf not found"; exit 77; }
cd "$src"
files=$(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' '*.h')
n=$(printf '%s\n' "$files" | grep -c . || true)
[ "$n" -gt 0 ] || { echo "format.check: no C++ sources found under $src"; exit 1; }
if out=$(printf '%s\n' "$files" | xargs "$cf" --dry-run --Werror 2>&1); then
  echo "format.check: $n files formatted as .clang-format says ($("$cf" --version))"
else
  printf '%s\n' "$out" | grep -E '^[^ ].*(warning|error):' | cut -d: -f1 | sort -u | sed 's/^/needs clang-format: /'
  printf '%s\n' "$out" | head -n 20
  exit 1
fi

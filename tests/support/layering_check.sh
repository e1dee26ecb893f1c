#!/bin/sh
# layering.check: the analyses do not know the report (shared/STYLE.md G1), proven on the build's link lines, and
# topology's libraries include one way (topology/README.md, "The libraries").
#   layering_check.sh SRC_DIR BUILD_NINJA
# Fails (exit 1) when
#   - a source of a topology library includes a header of a library above it, in the order of TOPOLOGY_ORDER
#     (base, model, capacity, words, scan, windows, recording, history); topology/results, header-only result
#     types, is not ranked;
#   - a file of load/ includes a topology header other than topology/base's;
#   - a file under src/analysis includes a report/ header;
#   - an executable that links an analysis library but not the cli library (the analyses' own tests; src/cli is
#     the one place that joins analysis and report) links report or Graphviz;
#   - an analysis library is linked by no such executable (then nothing here proves its link line).
# Exit 77 (skip) when BUILD_NINJA is missing (a build with another generator).
set -eu
src=$1
ninja=$2
[ -f "$ninja" ] || { echo "SKIP: $ninja not found (not a Ninja build)"; exit 77; }
status=0

if hits=$(grep -rn '#include "report/' "$src/src/analysis"); then
  printf '%s\n' "$hits" | sed 's/^/analysis includes report: /'
  status=1
fi

# topology/<lib>/ may include topology/<lower lib>/ and itself, never a library after it in this order.
TOPOLOGY_ORDER="base model capacity words scan windows recording history"
above=$TOPOLOGY_ORDER
for lib in $TOPOLOGY_ORDER; do
  above=${above#"$lib"}
  above=${above# }
  for higher in $above; do
    if hits=$(grep -rn "#include \"topology/$higher/" "$src/topology/$lib"); then
      printf '%s\n' "$hits" | sed "s|^$src/||; s/^/topology_$lib includes topology_$higher (a library above it): /"
      status=1
    fi
  done
done
if hits=$(grep -rn '#include "topology/' "$src/load" | grep -v '#include "topology/base/'); then
  printf '%s\n' "$hits" | sed "s|^$src/||; s/^/load includes topology beyond topology\/base: /"
  status=1
fi

# One line per executable: "TARGET LIB LIB ...", from its build statement and the LINK_LIBRARIES after it.
links=$(awk '
  /^build [^:]*: CXX_EXECUTABLE_LINKER/ { target = $2; next }
  /^build / { target = "" }
  target != "" && $1 == "LINK_LIBRARIES" { $1 = ""; $2 = ""; print target $0; target = "" }
' "$ninja")
analysis_tests=$(printf '%s\n' "$links" | grep 'libanalysis_' | grep -v '/libcli\.a' || true)
[ -n "$analysis_tests" ] || { echo "layering.check: no executable links an analysis library alone"; exit 1; }

bad=$(printf '%s\n' "$analysis_tests" | grep -E '/libreport\.a|libgvc|libcgraph' || true)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" | awk '{ print "analysis executable links report or Graphviz: " $1 }'
  status=1
fi

for lib in $(grep -o 'src/analysis/libanalysis_[a-z_]*\.a' "$ninja" | sort -u); do
  printf '%s\n' "$analysis_tests" | grep -q "$lib" || {
    echo "layering.check: no analysis test executable links $lib"
    status=1
  }
done

n=$(printf '%s\n' "$analysis_tests" | wc -l)
[ "$status" -ne 0 ] || echo "layering.check: src/analysis includes no report/ header; $n analysis executables link neither report nor Graphviz; topology's libraries include one way ($TOPOLOGY_ORDER), load only topology/base"
exit "$status"

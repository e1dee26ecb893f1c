# The library drawing topology/libraries.svg (topology/README.md, "The libraries"): copied into an empty build
# directory, `cmake -S . -B DIR --graphviz=DIR/topology.dot && dot -Tsvg DIR/topology.dot -o topology/libraries.svg`.
set(GRAPHVIZ_GRAPH_NAME "topology libraries")
set(GRAPHVIZ_EXECUTABLES FALSE)
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_INTERFACE_LIBS TRUE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
set(GRAPHVIZ_IGNORE_TARGETS "^(report|cli|usbsat.*|analysis.*|doctest.*|.*_test|fuzz.*|usbsat_flags|.*picture.*|.*::.*)$")

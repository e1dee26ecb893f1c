#pragma once
/// `usbsat topo --dot`: the topology picture (graph_model.hpp) as Graphviz DOT text. Pure; the same text is
/// what `usbsat report` lays out (graphviz_layout.hpp), so both show the same styling rules.
#include <string>
#include <string_view>

#include "report/graph_model.hpp"

namespace usbsat::report {

/// A DOT double-quoted string: `"` and `\` escaped, line breaks and other control characters become blanks
/// (labels join their lines with DOT's own `\n` escape).
std::string dot_quote(std::string_view s);

/// The whole graph: `digraph usbsat { ... }`, left to right, nodes then edges in model order. Edge labels are
/// `label`s up to 200 nodes and `xlabel`s above (a much faster layout for large machines).
std::string render_dot(const GraphModel& g);

}  // namespace usbsat::report

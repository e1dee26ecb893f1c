#pragma once
/// Graphviz: DOT text laid out with the `dot` engine and rendered to SVG. Two builds of one function, chosen
/// by USBSAT_GRAPHVIZ (report/CMakeLists.txt): `library`, in process through libgvc/libcgraph
/// (graphviz_layout.cpp, with RAII handles for GVC_t and Agraph_t), or `program`, Graphviz's `dot -Tsvg` as a
/// child process (graphviz_program.cpp). Those two files are the only places that know Graphviz exists;
/// everything else hands in DOT text (dot.hpp) and gets SVG back.
#include <stdexcept>
#include <string>
#include <string_view>

namespace usbsat::report {

/// Graphviz could not read or lay out the graph (no `dot` layout plugin installed, a syntax error).
struct LayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The SVG document Graphviz writes for `dot` (the `dot` layout engine). Deterministic for the same input and
/// Graphviz version. Throws LayoutError.
std::string layout_svg(std::string_view dot);

/// The SVG fragment to put inside an HTML page: layout_svg() without the XML declaration, DOCTYPE and
/// comments before the <svg> element.
inline std::string inline_svg(std::string_view svg_document) {
  const auto start = svg_document.find("<svg");
  return std::string(start == std::string_view::npos ? svg_document : svg_document.substr(start));
}

}  // namespace usbsat::report

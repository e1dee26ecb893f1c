#pragma once
/// Graphviz, in process: DOT text laid out with the `dot` engine and rendered to SVG through
/// libgvc/libcgraph. This header and graphviz_layout.cpp are the only places that know Graphviz exists (RAII
/// handles for GVC_t and Agraph_t live in the .cpp); everything else hands in DOT text (dot.hpp) and gets SVG
/// back.
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
std::string inline_svg(std::string_view svg_document);

}  // namespace usbsat::report

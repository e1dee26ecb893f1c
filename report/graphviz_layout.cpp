#include "report/graphviz_layout.hpp"

#include <memory>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace usbsat::report {
namespace {

// ---- RAII handles (STYLE G3): stateless deleters, one word wide -------------------------------------------
struct GvcDeleter {
  void operator()(GVC_t* c) const { gvFreeContext(c); }
};
struct GraphDeleter {
  void operator()(Agraph_t* g) const { agclose(g); }
};
struct RenderDataDeleter {
  void operator()(char* p) const { gvFreeRenderData(p); }
};
using GvcPtr = std::unique_ptr<GVC_t, GvcDeleter>;
using GraphPtr = std::unique_ptr<Agraph_t, GraphDeleter>;
using RenderDataPtr = std::unique_ptr<char, RenderDataDeleter>;

/// A layout attached to a graph: gvFreeLayout before the graph is closed.
class Layout {
 public:
  Layout(GVC_t* gvc, Agraph_t* g) : gvc_(gvc), g_(g), ok_(gvLayout(gvc, g, "dot") == 0) {}
  ~Layout() {
    if (ok_) gvFreeLayout(gvc_, g_);
  }
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;
  bool ok() const { return ok_; }

 private:
  GVC_t* gvc_;
  Agraph_t* g_;
  bool ok_;
};

// Graphviz reports problems through a global callback; collect them for the exception instead of stderr.
thread_local std::string g_errors;
int collect_error(char* message) {
  g_errors += message;
  return 0;
}

[[noreturn]] void fail(const std::string& what) {
  std::string msg = "graphviz: " + what;
  if (!g_errors.empty()) msg += ": " + g_errors;
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  throw LayoutError(msg);
}

/// One Graphviz context for the whole process. Graphviz 2.42's pango plugin keeps a pointer to the font name
/// of the last text it measured, and that name lives in the context's font table: freeing a context between
/// two layouts leaves the pointer dangling, and the next layout reads freed memory (AddressSanitizer in
/// report_test's second layout). The context is created on first use and freed at exit, after the last
/// layout.
GVC_t* context() {
  static const GvcPtr gvc(gvContext());
  return gvc.get();
}

}  // namespace

std::string layout_svg(std::string_view dot) {
  g_errors.clear();
  agseterrf(&collect_error);
  agseterr(AGERR);  // warnings (e.g. about fonts) are not failures
  GVC_t* const gvc = context();
  if (!gvc) fail("cannot create a context");
  const std::string text(dot);
  const GraphPtr g(agmemread(text.c_str()));
  if (!g) fail("cannot read the graph");
  const Layout layout(gvc, g.get());
  if (!layout.ok()) fail("the dot layout failed (is the dot layout plugin installed? libgvc6)");
  char* data = nullptr;
  unsigned int length = 0;
  const int rc = gvRenderData(gvc, g.get(), "svg", &data, &length);
  const RenderDataPtr owned(data);
  if (rc != 0 || !data) fail("cannot render SVG (is the core plugin installed? libgvc6)");
  return std::string(data, length);
}

}  // namespace usbsat::report

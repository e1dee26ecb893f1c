// Test-only driver: run topology::scan_system() once (under umockdev: on the testbed) and either print a
// plain dump of the scanned tree (debugging, the umockdev tests' failure output) or, with --quiet, only the
// number of nodes — so a benchmark measures the scan and nothing else. Not part of the usbsat CLI.
//   scan_only [--quiet] [--tree|--drives]   --tree: ScanDetail::Tree, what `usbsat topo` (text) reads;
//                                           --drives: ScanDetail::Drives, what `usbsat drives --json` reads
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "topology/model/errors.hpp"
#include "topology/scan/scan.hpp"

using namespace usbsat::topology;

namespace {
void dump(const Topology& t, Vertex v, int depth) {
  const Node& n = t[v];
  std::string label =
      std::string(to_string(n.kind)) + " " + std::string(n.syspath().substr(n.syspath().rfind('/') + 1));
  if (const auto* d = n.get_if<UsbDeviceInfo>())
    label += " speed=" + std::string(d->speed ? to_sysfs_string(*d->speed) : "?") +
             " capable=" + std::string(d->capable_speed ? to_sysfs_string(*d->capable_speed) : "?");
  if (const auto* c = n.get_if<ControllerInfo>())
    label += " kind=" + std::string(to_string(c->kind)) + " drv=" + c->driver + " name=" + c->model_name;
  if (const auto* i = n.get_if<InterfaceInfo>())
    label += " drv=" + i->driver + " storage=" + std::string(to_string(i->storage)) +
             (i->uas_capable ? " uas_capable" : "") +
             (i->uas_blocked_reason ? " blocked=" + *i->uas_blocked_reason : "");
  if (const auto* b = n.get_if<BlockInfo>()) label += " transport=" + b->transport + " dev=" + b->devnode;
  if (const auto* p = n.get_if<PortInfo>()) label += p->synthesized ? " (synth)" : "";
  std::printf("%*s%s\n", depth * 2, "", label.c_str());
  for (Vertex c : children(t, v)) dump(t, c, depth + 1);
}
}  // namespace

int main(int argc, char** argv) {
  bool quiet = false;
  ScanConfig cfg;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quiet") == 0)
      quiet = true;
    else if (std::strcmp(argv[i], "--tree") == 0)
      cfg.detail = ScanDetail::Tree;
    else if (std::strcmp(argv[i], "--drives") == 0)
      cfg.detail = ScanDetail::Drives;
    else {
      std::fprintf(stderr, "usage: scan_only [--quiet] [--tree|--drives]\n");
      return 2;
    }
  }
  cfg.mountinfo_path = "";
  try {
    const auto start = std::chrono::steady_clock::now();
    ScanResult r = scan_system(cfg);
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
    if (quiet) {
      std::printf("%zu nodes in %lld us\n", r.topology.size(), static_cast<long long>(us.count()));
      return 0;
    }
    for (Vertex v : r.topology.roots()) dump(r.topology, v, 0);
    for (const auto& d : r.diagnostics) std::printf("diag: %s: %s\n", d.where.c_str(), d.message.c_str());
  } catch (const ScanError& e) {
    std::fprintf(stderr, "scan error: %s\n", e.what());
    return 3;
  }
  return 0;
}

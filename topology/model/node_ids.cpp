#include "topology/model/node_ids.hpp"

namespace usbsat::topology {

PcieLink controller_pcie_link(const Topology& t, Vertex c) {
  if (auto e = uplink(t, c); e && t[*e].kind == LinkKind::Pci && !t[*e].pcie.empty()) return t[*e].pcie;
  return t[c].as<ControllerInfo>().link;
}

std::string node_id(const Topology& t, Vertex v) {
  return std::string(node_name(t[v]));
}

std::string node_product(const Topology& t, Vertex v) {
  const Node& n = t[v];
  auto join = [](const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : a + " " + b;
  };
  if (const auto* c = n.get_if<ControllerInfo>()) return join(c->vendor_name, c->model_name);
  if (const auto* h = n.get_if<PciHopInfo>()) return join(h->vendor_name, h->model_name);
  if (const auto* d = n.get_if<UsbDeviceInfo>()) return d->product ? *d->product : d->model_name;
  if (const auto* r = n.get_if<RouterInfo>())
    return join(r->vendor_name.value_or(""), r->device_name.value_or(""));
  return {};
}

}  // namespace usbsat::topology

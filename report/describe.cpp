#include "report/describe.hpp"

#include <fmt/format.h>

#include "report/escape.hpp"
#include "report/formatters.hpp"

namespace usbsat::report {

std::string describe_usb_device(const topology::UsbDeviceInfo& d) {
  std::string out;
  if (d.vendor_id && d.product_id) out = fmt::format("{:04x}:{:04x}", *d.vendor_id, *d.product_id);
  const std::string vendor = d.manufacturer ? *d.manufacturer : d.vendor_name;
  const std::string product = d.product ? *d.product : d.model_name;
  for (const auto* s : {&vendor, &product})
    if (!s->empty()) out += (out.empty() ? "" : " ") + display_string(*s);
  return out;
}

std::string describe_controller(const topology::ControllerSummary& c) {
  std::string out = c.pci + " " + std::string(hcd_label(c.kind));
  if (c.vendor_id && c.device_id) out += fmt::format(" [{:04x}:{:04x}]", *c.vendor_id, *c.device_id);
  for (const auto* s : {&c.vendor, &c.name})
    if (!s->empty()) out += " " + display_string(*s);
  return out;
}

std::string short_pci(const std::string& bdf) {
  return bdf.rfind("0000:", 0) == 0 ? bdf.substr(5) : bdf;
}

std::string disk_model(const std::optional<std::string>& vendor, const std::optional<std::string>& model) {
  std::string out;
  for (const auto* s : {&vendor, &model})
    if (*s && !(*s)->empty()) out += (out.empty() ? "" : " ") + display_string(**s);
  return out;
}

std::string describe_speed(std::optional<topology::UsbSpeed> speed,
                           std::optional<topology::UsbSpeed> capable) {
  std::string out = speed ? std::string(topology::short_label(*speed)) : "speed ?";
  if (speed && capable && *capable > *speed && *capable >= topology::UsbSpeed::High)
    out += fmt::format(" (capable {})", topology::short_label(*capable));
  return out;
}

std::string describe_node(const topology::Topology& t, topology::Vertex v) {
  using topology::NodeKind;
  const auto& n = t[v];
  std::string_view kind;
  switch (n.kind) {
    case NodeKind::PciHop:
      kind = "PCIe port";
      break;
    case NodeKind::Controller:
      kind = "controller";
      break;
    case NodeKind::RootHub:
      kind = "root hub";
      break;
    case NodeKind::Hub:
      kind = "hub";
      break;
    case NodeKind::Port:
      kind = "port";
      break;
    case NodeKind::Device:
      kind = "device";
      break;
    case NodeKind::Interface:
      kind = "interface";
      break;
    case NodeKind::ScsiDevice:
      kind = "SCSI device";
      break;
    case NodeKind::Block:
      kind = "disk";
      break;
  }
  std::string what;
  auto join = [&](const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : a + " " + b;
  };
  if (const auto* c = n.get_if<topology::ControllerInfo>())
    what = join(c->vendor_name, c->model_name);
  else if (const auto* h = n.get_if<topology::PciHopInfo>())
    what = join(h->vendor_name, h->model_name);
  else if (const auto* d = n.get_if<topology::UsbDeviceInfo>(); d && d->product)
    what = *d->product;
  return fmt::format("{} {}{}", kind, topology::node_id(t, v), what.empty() ? "" : " (" + what + ")");
}

std::string drive_where(const topology::Topology& t, topology::Vertex block) {
  const auto dev = topology::usb_device_of(t, block);
  if (!dev) return {};
  const auto port = topology::parent(t, *dev);
  if (!port || t[*port].kind != topology::NodeKind::Port) return {};
  const auto& info = t[*port].as<topology::PortInfo>();
  const auto hub = topology::parent(t, *port);
  if (hub && t[*hub].kind == topology::NodeKind::Hub)
    return fmt::format("port {} of hub {}", info.number, topology::node_id(t, *hub));
  return fmt::format("port {}", info.number);
}

}  // namespace usbsat::report

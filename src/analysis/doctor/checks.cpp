#include "src/analysis/doctor/checks.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "topology/model/pcie_link.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::doctor {

using namespace topology;

namespace {
bool is_storage(const InterfaceInfo& i) {
  return i.storage != StorageProtocol::None || i.interface_class == 0x08 || i.uas_capable;
}
}  // namespace

std::vector<const common::UsbDrive*> StorageDevice::media() const {
  std::vector<const common::UsbDrive*> out;
  for (const auto& d : drives)
    if (d.has_media) out.push_back(&d);
  return out;
}

std::vector<StorageDevice> storage_devices(const Topology& t) {
  std::map<Vertex, std::vector<common::UsbDrive>> by_device;
  for (auto& d : common::usb_drives(t)) by_device[d.device].push_back(std::move(d));
  std::vector<StorageDevice> out;
  // Depth-first order (Device vertices, then the rare drive whose USB device is a Hub vertex).
  auto take = [&](Vertex v) {
    auto it = by_device.find(v);
    if (it == by_device.end()) return;
    StorageDevice s{v, {}, std::move(it->second)};
    by_device.erase(it);
    for (Vertex c : children(t, v))
      if (const auto* i = t[c].get_if<InterfaceInfo>(); i && is_storage(*i)) s.ifaces.push_back(c);
    out.push_back(std::move(s));
  };
  for (Vertex v : of_kind(t, NodeKind::Device)) take(v);
  for (Vertex v : of_kind(t, NodeKind::Hub)) take(v);
  return out;
}

Finding Context::finding(FindingSeverity s, std::vector<std::string> names) const {
  Finding f;
  f.id = std::string(id);
  f.severity = s;
  f.devices = std::move(names);
  return f;
}

const UsbDeviceInfo& usb(const Topology& t, Vertex v) {
  return t[v].as<UsbDeviceInfo>();
}

std::vector<std::string> device_names(const Topology& t, const StorageDevice& d) {
  std::vector<std::string> out;
  for (const auto* m : d.media()) out.push_back(m->name);
  out.push_back(usb(t, d.dev).name);
  return out;
}

std::string device_label(const Topology& t, const StorageDevice& d) {
  const auto media = d.media();
  return topology::describe_drive(usb(t, d.dev), media.empty() ? usb(t, d.dev).name : media.front()->name);
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

namespace {
/// How many of `n` listed items an evidence value names: all of them, unless that is more than one beyond
/// kEvidenceItems ("and 1 more" would save nothing).
std::size_t evidence_shown(std::size_t n) {
  return n <= kEvidenceItems + 1 ? n : kEvidenceItems;
}
}  // namespace

std::string short_list(const Topology& t, const std::vector<const Connector*>& cs) {
  std::vector<std::string> head;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, cs.size()); ++i)
    head.push_back(topology::describe_connector(t, *cs[i]));
  std::string out = topology::join(head, " or ");
  if (evidence_shown(cs.size()) < cs.size())
    out += fmt::format(" ({} more, {} of them in the evidence)", cs.size() - 3, kEvidenceItems - 3);
  else if (cs.size() > 3)
    out += fmt::format(" ({} more in the evidence)", cs.size() - 3);
  return out;
}

std::string evidence_list(const Topology& t, const std::vector<const Connector*>& cs) {
  const std::size_t shown = evidence_shown(cs.size());
  std::vector<std::string> head;
  for (std::size_t i = 0; i < shown; ++i) head.push_back(topology::describe_connector(t, *cs[i]));
  if (shown == cs.size()) return topology::join(head, ", ");
  return fmt::format("{} and {} more", topology::join(head, ", "), cs.size() - shown);
}

void ev(Finding& f, std::string key, std::string value) {
  f.evidence.emplace_back(std::move(key), std::move(value));
}

std::vector<const StorageDevice*> tunnel_devices(const Context& cx, const Usb4LinkSummary& link) {
  std::vector<const StorageDevice*> out;
  // Every drive that rides the tunnel: those on a hub chained behind the link's router too.
  for (const auto& d : cx.devices) {
    const auto links = usb4_links_of(cx.t, d.dev);
    if (std::any_of(links.begin(), links.end(), [&](const auto& l) { return l.router == link.router; }))
      out.push_back(&d);
  }
  return out;
}

std::vector<std::string> devices_names(const Topology& t, const std::vector<const StorageDevice*>& ds) {
  std::vector<std::string> out;
  for (const auto* d : ds)
    for (const auto& n : device_names(t, *d)) add_unique(out, n);
  return out;
}

std::string devices_labels(const Topology& t, const std::vector<const StorageDevice*>& ds) {
  std::vector<std::string> labels;
  for (const auto* d : ds) labels.push_back(device_label(t, *d));
  return topology::join(labels, ", ");
}

bool not_used(const Topology& t, std::optional<Vertex> port) {
  if (!port) return false;
  const auto& ct = t[*port].as<PortInfo>().connect_type;
  return ct && *ct == "not used";
}

bool free_usb3_connector(const Topology& t, const Connector& c) {
  return c.usb3_port && !occupant(t, c) && !not_used(t, c.usb3_port) && !not_used(t, c.usb2_port);
}

std::vector<const Connector*> free_usb3_connectors(const Topology& t) {
  std::vector<const Connector*> out;
  for (const auto& c : t.connectors())
    if (free_usb3_connector(t, c)) out.push_back(&c);
  return out;
}

bool plausible_speed(std::optional<UsbSpeed> s) {
  return s && *s != UsbSpeed::Unknown;
}

bool plausible_pcie_speed(std::optional<double> gts) {
  return gts && std::isfinite(*gts) && pcie_generation(*gts).has_value();
}

bool plausible_pcie_width(std::optional<unsigned> width) {
  if (!width) return false;
  static constexpr unsigned kWidths[] = {1, 2, 4, 8, 12, 16, 32};
  return std::find(std::begin(kWidths), std::end(kWidths), *width) != std::end(kWidths);
}

bool plausible_sectors_kb(std::optional<unsigned> kb) {
  return kb && *kb >= 4 && *kb <= (1u << 20);
}

bool plausible_count(std::optional<unsigned> n) {
  return n && *n <= 1'000'000u;
}

}  // namespace usbsat::analysis::doctor

// PCI hops (bridges, root ports) and USB host controllers, with their PCIe links and EHCI companions.
#include <algorithm>

#include "topology/companions.hpp"
#include "topology/scanner/attr_dir.hpp"
#include "topology/scanner/scanner.hpp"

namespace usbsat::topology::scanner {
namespace {
/// What the kernel prints for a link it cannot tell ("Unknown", "Unknown speed") or a link that is down
/// (width "0"): unknown, but nothing to report.
bool kernel_unknown(std::string_view text) {
  text = trim(text);
  return text.empty() || text.starts_with("Unknown") || text == "0";
}
}  // namespace

/// A PCI function's ids from its uevent (PCI_ID, PCI_CLASS, PCI_SUBSYS_ID: drivers/pci/pci-driver.c
/// pci_uevent), read with the device record; the `vendor`, `device`, `class` and `subsystem_*` attributes
/// only where the uevent lacks them.
Scanner::PciIds Scanner::read_pci_ids(const RawDevice& rec, const AttrDir& a, bool subsystem) {
  const auto prop = [&](std::string_view key) { return rec.property(key).value_or(std::string_view{}); };
  PciIds ids;
  if (const auto id = parse_pci_id_pair(prop("PCI_ID"))) std::tie(ids.vendor, ids.device) = *id;
  if (!ids.vendor) ids.vendor = a.parse<std::uint16_t>("vendor", parse_hex16);
  if (!ids.device) ids.device = a.parse<std::uint16_t>("device", parse_hex16);
  ids.class_code = parse_hex32(prop("PCI_CLASS"));
  if (!ids.class_code) ids.class_code = a.parse<std::uint32_t>("class", parse_hex32);
  if (!subsystem) return ids;
  if (const auto id = parse_pci_id_pair(prop("PCI_SUBSYS_ID")))
    std::tie(ids.subsystem_vendor, ids.subsystem_device) = *id;
  if (!ids.subsystem_vendor) ids.subsystem_vendor = a.parse<std::uint16_t>("subsystem_vendor", parse_hex16);
  if (!ids.subsystem_device) ids.subsystem_device = a.parse<std::uint16_t>("subsystem_device", parse_hex16);
  return ids;
}

/// The PCIe link attributes; a value the kernel cannot have written ("inf GT/s", "1e300 GT/s", "x99")
/// stays unknown and is reported.
PcieLink Scanner::read_pcie_link(const AttrDir& a) {
  PcieLink l;
  const auto read = [&](std::string_view name, auto parse, auto& field) {
    const auto text = a.get(name);
    if (!text) return;
    field = parse(*text);
    if (!field && !kernel_unknown(*text))
      unusable(a.syspath(), name, text, "is not a PCIe link value; it is shown as unknown");
  };
  read("current_link_speed", parse_pcie_speed, l.speed_gts);
  read("current_link_width", parse_pcie_width, l.width);
  read("max_link_speed", parse_pcie_speed, l.max_speed_gts);
  read("max_link_width", parse_pcie_width, l.max_width);
  return l;
}

/// Warn when a PCI function between the PCI root and `syspath` is not in the device tree: the PCIe uplink
/// built without it would look shorter (or chipset-integrated) than it is.
void Scanner::check_pci_path(const std::string& syspath) {
  for (auto p = path_dirname(syspath); !p.empty(); p = path_dirname(p)) {
    if (!parse_pci_address(path_basename(p))) continue;
    if (const auto* n = builder_.get(p); n && n->kind == NodeKind::PciHop) continue;
    if (!missing_pci_.insert(std::string(p)).second) continue;
    warn(std::string(p), "PCI function on the path to " + std::string(path_basename(syspath)) +
                             " is not in the device tree; the PCIe uplink beyond it is unknown");
  }
}

/// Add the PCI function at `syspath` (and, recursively, its PCI ancestors) as hops; returns its syspath
/// when it is a PCI function, nullopt otherwise.
std::optional<std::string> Scanner::ensure_pci_hop(const std::optional<std::string>& syspath) {
  if (!syspath) return std::nullopt;
  if (builder_.contains(*syspath)) return syspath;
  const auto& rec = record(*syspath);
  if (!rec || rec->subsystem != "pci") return std::nullopt;
  auto up = ensure_pci_hop(rec->parent);
  AttrDir a(src_, *syspath);
  PciHopInfo hop;
  hop.syspath = *syspath;
  hop.bdf = rec->sysname;
  const auto ids = read_pci_ids(*rec, a, false);
  hop.vendor_id = ids.vendor;
  hop.device_id = ids.device;
  hop.class_code = ids.class_code;
  hop.driver = rec->driver;
  std::tie(hop.vendor_name, hop.model_name) = pci_names(hop.vendor_id, hop.device_id);
  hop.link = read_pcie_link(a);
  Link link;
  if (up) link = Link{LinkKind::Pci, std::nullopt, 1, hop.link};
  builder_.add(Node{NodeKind::PciHop, std::move(hop)}, up, link);
  return syspath;
}

void Scanner::ensure_controller(const std::string& syspath, const std::string& root_hub) {
  if (builder_.contains(syspath)) return;
  ControllerInfo c;
  c.syspath = syspath;
  c.bdf = std::string(path_basename(syspath));
  const auto& rec = record(syspath);
  std::optional<std::string> up;
  if (!rec) {
    // A PCI function's directory without its uevent: still below its PCIe path, whose hops are known.
    c.is_pci = parse_pci_address(c.bdf).has_value();
    if (c.is_pci) up = ensure_pci_hop(std::string(path_dirname(syspath)));
    warn(syspath, "host controller of " + root_hub + " is not in the device tree; its details are unknown");
  } else {
    c.is_pci = rec->subsystem == "pci";
    c.driver = rec->driver;
    AttrDir a(src_, syspath);
    if (c.is_pci) {
      up = ensure_pci_hop(rec->parent);
      check_pci_path(syspath);
      const auto ids = read_pci_ids(*rec, a, full());
      c.vendor_id = ids.vendor;
      c.device_id = ids.device;
      c.subsystem_vendor_id = ids.subsystem_vendor;
      c.subsystem_device_id = ids.subsystem_device;
      c.class_code = ids.class_code;
      if (c.class_code) c.kind = hcd_kind_from_class(*c.class_code).value_or(HcdKind::Unknown);
      c.link = read_pcie_link(a);
      std::tie(c.vendor_name, c.model_name) = pci_names(c.vendor_id, c.device_id);
      report_missing_ids(c);
    }
  }
  if (c.kind == HcdKind::Unknown) c.kind = hcd_kind_from_driver(c.driver);
  Link link;
  if (up) link = Link{LinkKind::Pci, std::nullopt, 1, c.link};
  builder_.add(Node{NodeKind::Controller, std::move(c)}, up, link);
  controllers_.push_back(syspath);
}

/// A PCI controller without a usable `vendor` or `class` is shown as "Controller … unknown": say which is
/// missing, as for any other device that could not be read completely.
void Scanner::report_missing_ids(const ControllerInfo& c) {
  std::string missing;
  if (!c.vendor_id) missing = "'vendor'";
  if (!c.class_code) missing += std::string(missing.empty() ? "" : " and ") + "'class'";
  if (missing.empty()) return;
  warn(c.syspath, "PCI attribute " + missing +
                      " missing or unusable; the controller's vendor or type is shown as unknown");
}

/// EHCI companions (topology/companions.hpp).
void Scanner::assign_companions() {
  std::vector<ControllerInfo*> all;
  for (const auto& c : controllers_) all.push_back(&builder_.get(c)->as<ControllerInfo>());
  topology::assign_companions(all);
}

}  // namespace usbsat::topology::scanner

// PCI hops (bridges, root ports) and USB host controllers, with their PCIe links and EHCI companions.
#include <algorithm>

#include "topology/scan/companions.hpp"
#include "topology/scan/scanner/attr_dir.hpp"
#include "topology/scan/scanner/scanner.hpp"
#include "topology/scan/soc_controllers.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::topology::scanner {
namespace {
/// Whether device tree `compatible` strings describe a USB controller or its glue ("snps,dwc3",
/// "brcm,bcm2835-usb", "ti,ehci-omap"), not the bus above it ("brcm,bcm2712-pcie", "simple-bus").
bool usb_compatible(const std::vector<std::string>& compatibles) {
  for (const auto& c : compatibles)
    for (std::string_view needle : {"usb", "dwc", "hci", "otg"})
      if (c.find(needle) != std::string::npos) return true;
  return false;
}

/// A platform device's `compatible` strings: its OF_COMPATIBLE_<n> uevent properties (drivers/of/device.c
/// of_device_uevent), else its `of_node/compatible` (NUL-separated: read as bytes, each string then made
/// safe as the source makes every text safe).
std::vector<std::string> compatibles_of(const RawDevice& rec, DeviceSource& src) {
  std::vector<std::string> out;
  for (unsigned i = 0; i < 16; ++i) {
    const auto v = rec.property("OF_COMPATIBLE_" + std::to_string(i));
    if (!v) break;
    out.emplace_back(*v);
  }
  if (out.empty())
    if (const auto raw = src.binary_attribute(rec.syspath, "of_node/compatible"); raw && raw->size() <= 4096)
      for (auto& s : split_compatible(*raw)) out.push_back(trim_and_escape(s));
  return out;
}

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
  if (rec && !c.is_pci)
    if (const auto carrier = soc_controller(c, *rec)) up = ensure_pci_hop(*carrier);
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

/// A SoC's platform controller: named from the device tree of it and of its USB ancestors (DWC3's
/// `xhci-hcd.0.auto` has none itself; its DWC3 core and the SoC's glue above do), up to the first ancestor
/// that is not a USB node. Returns the PCI function that carries it, if one does (soc_carrier).
std::optional<std::string> Scanner::soc_controller(ControllerInfo& c, const RawDevice& rec) {
  std::vector<std::string> all;
  std::string fullname;
  const RawDevice* cur = &rec;
  const RawDevice* above = nullptr;  // the first ancestor that is not a USB node
  for (int depth = 0; cur && depth < 4; ++depth) {
    const auto own = compatibles_of(*cur, src_);
    if (!own.empty() && !usb_compatible(own)) {
      above = cur;
      break;
    }
    all.insert(all.end(), own.begin(), own.end());
    if (const auto f = cur->property("OF_FULLNAME"); f && fullname.empty()) fullname = *f;
    if (!cur->parent || cur->subsystem == "pci") break;
    const auto& up = record(*cur->parent);
    cur = up ? &*up : nullptr;
  }
  if (const auto name = soc_controller_name(all, fullname)) {
    c.vendor_name = name->vendor;
    c.model_name = name->model;
  }
  return above ? soc_carrier(fullname, *above) : std::nullopt;
}

/// The PCI function a platform controller belongs to although sysfs puts it beside, not below, it: the
/// Raspberry Pi 5's RP1 I/O chip, whose DWC3 controllers are platform devices of the PCIe host bridge
/// (`1000120000.pcie/1f00200000.usb`) while RP1 itself is `…/pci0000:00/0000:00:00.0/0000:01:00.0`. The
/// device tree ties them: the controller's node (`/axi/pcie@120000/rp1/usb@200000`) sits below a node
/// (`…/rp1`) that is not the bridge's own (`/axi/pcie@120000`). That node's PCI function is the one whose
/// OF_FULLNAME names it, else the only PCI endpoint below the bridge; nullopt when neither is found.
std::optional<std::string> Scanner::soc_carrier(const std::string& fullname, const RawDevice& bridge) {
  const auto slash = fullname.rfind('/');
  const auto bridge_node = bridge.property("OF_FULLNAME");
  if (slash == std::string::npos || slash == 0 || !bridge_node) return std::nullopt;
  const std::string node = fullname.substr(0, slash);
  if (node == *bridge_node || !node.starts_with(std::string(*bridge_node) + "/")) return std::nullopt;
  std::vector<std::string> endpoints;
  if (!pci_functions_) pci_functions_ = src_.enumerate("pci");
  for (const auto& d : *pci_functions_) {
    if (!d.syspath.starts_with(bridge.syspath + "/")) continue;
    if (d.property("OF_FULLNAME") == node) return d.syspath;
    if (!d.property("PCI_CLASS").value_or("").starts_with("604")) endpoints.push_back(d.syspath);
  }
  if (endpoints.size() == 1) return endpoints.front();
  return std::nullopt;
}

/// EHCI companions (topology/scan/companions.hpp).
void Scanner::assign_companions() {
  std::vector<ControllerInfo*> all;
  for (const auto& c : controllers_) all.push_back(&builder_.get(c)->as<ControllerInfo>());
  topology::assign_companions(all);
}

}  // namespace usbsat::topology::scanner

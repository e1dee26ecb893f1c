#include "topology/scan.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <set>

#include "topology/builder.hpp"
#include "topology/descriptors.hpp"
#include "topology/errors.hpp"
#include "topology/sysfs_parse.hpp"
#include "topology/udev_source.hpp"

namespace usbsat::topology {
namespace {

std::string_view dirname(std::string_view p) {
  const auto slash = p.rfind('/');
  return slash == std::string_view::npos || slash == 0 ? std::string_view{} : p.substr(0, slash);
}
std::string_view basename(std::string_view p) {
  const auto slash = p.rfind('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

std::optional<std::string> trimmed(std::optional<std::string> s) {
  if (s) s = std::string(trim(*s));
  return s;
}

std::string hex4(std::uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v);
  return buf;
}

/// The attributes present in one sysfs directory, listed once, so absent attributes cost no open().
class AttrDir {
 public:
  /// `listed`: list the directory once (worth it where many attributes may be absent); otherwise every
  /// attribute is simply tried.
  AttrDir(DeviceSource& src, std::string syspath, bool listed = true)
      : src_(&src), syspath_(std::move(syspath)), listed_(listed) {
    if (listed_) names_ = src_->list(syspath_, "");
  }
  bool exists() const { return !listed_ || !names_.empty(); }
  bool has(std::string_view name) const {
    return !listed_ || std::binary_search(names_.begin(), names_.end(), name);
  }
  std::optional<std::string> get(std::string_view name) const {
    const auto slash = name.find('/');
    if (!has(slash == std::string_view::npos ? name : name.substr(0, slash))) return std::nullopt;
    return src_->attribute(syspath_, name);
  }
  std::optional<std::string> binary(std::string_view name) const {
    return has(name) ? src_->binary_attribute(syspath_, name) : std::nullopt;
  }
  std::optional<std::string> link(std::string_view name) const {
    return has(name) ? src_->link_target(syspath_, name) : std::nullopt;
  }
  template <class T, class F>
  std::optional<T> parse(std::string_view name, F f) const {
    auto v = get(name);
    if (!v) return std::nullopt;
    auto r = f(*v);
    return r ? std::optional<T>(static_cast<T>(*r)) : std::nullopt;
  }
  const std::string& syspath() const { return syspath_; }
  const std::vector<std::string>& entries() const { return names_; }

 private:
  DeviceSource* src_;
  std::string syspath_;
  bool listed_ = true;
  std::vector<std::string> names_;
};

std::optional<unsigned> to_unsigned(std::string_view s) {
  auto v = parse_uint(s);
  if (!v || *v > 0xffffffffu) return std::nullopt;
  return static_cast<unsigned>(*v);
}

PcieLink read_pcie_link(const AttrDir& a) {
  PcieLink l;
  if (auto s = a.get("current_link_speed")) l.speed_gts = parse_pcie_speed(*s);
  if (auto s = a.get("current_link_width")) l.width = parse_pcie_width(*s);
  if (auto s = a.get("max_link_speed")) l.max_speed_gts = parse_pcie_speed(*s);
  if (auto s = a.get("max_link_width")) l.max_width = parse_pcie_width(*s);
  return l;
}

/// "6:0:0:0": four decimal fields separated by ':'.
bool parse_hctl_like(std::string_view s) {
  int fields = 0;
  for (std::size_t start = 0; start <= s.size(); ++fields) {
    auto end = s.find(':', start);
    if (end == std::string_view::npos) end = s.size();
    if (!parse_uint(s.substr(start, end - start))) return false;
    start = end + 1;
  }
  return fields == 4;
}

struct PortSeed {
  std::string hub_syspath, hub_name;
  unsigned number = 0;
  std::string syspath;
  bool authoritative = false;  ///< seen in sysfs (directory entry or a device's `port` link), not derived
};


class Scanner {
 public:
  Scanner(DeviceSource& src, const ScanConfig& cfg) : src_(src), cfg_(cfg) {}

  ScanResult run() {
    load_mountinfo();
    auto usb = src_.enumerate("usb");
    std::vector<const RawDevice*> devices, interfaces;
    for (const auto& r : usb) {
      if (r.devtype == "usb_interface" || (r.devtype.empty() && r.sysname.find(':') != std::string::npos))
        interfaces.push_back(&r);
      else if (r.devtype == "usb_device" || (r.devtype.empty() && parse_usb_name(r.sysname)))
        devices.push_back(&r);
    }
    for (const auto* r : devices) guarded(r->syspath, [&] { add_usb_device(*r); });
    for (const auto& [key, seed] : ports_) guarded(seed.syspath, [&] { add_port(seed.syspath, seed); });
    // Interfaces the bus listing missed (old or partial trees) but that sit in their device's directory.
    std::vector<RawDevice> extra;
    std::set<std::string_view> known;
    for (const auto* r : interfaces) known.insert(r->syspath);
    for (const auto& path : listed_interfaces_)
      if (!known.contains(path))
        if (auto rec = src_.device(path)) extra.push_back(std::move(*rec));
    for (const auto& r : extra) interfaces.push_back(&r);
    std::sort(interfaces.begin(), interfaces.end(),
              [](const RawDevice* x, const RawDevice* y) { return x->syspath < y->syspath; });
    for (const auto* r : interfaces) guarded(r->syspath, [&] { add_interface(*r); });
    assign_companions();
    // SCSI devices are reached from their disks (".../6:0:0:0/block/sdb"): no scan of the scsi bus needed.
    auto block = src_.enumerate("block");
    for (const auto& r : block)
      if (r.devtype == "disk") guarded(r.syspath, [&] { add_disk(r); });
    for (const auto& r : block)
      if (r.devtype == "partition") guarded(r.syspath, [&] { add_partition(r); });

    ScanResult result{std::move(builder_).finish(diags_), {}};
    result.diagnostics = std::move(diags_);
    return result;
  }

 private:
  template <class F>
  void guarded(const std::string& where, F f) {
    try {
      f();
    } catch (const std::exception& e) {
      diags_.push_back({Severity::Error, where, std::string("could not be scanned: ") + e.what()});
    }
  }
  void warn(std::string where, std::string message) {
    diags_.push_back({Severity::Warning, std::move(where), std::move(message)});
  }

  // ---- names from the hardware database -------------------------------------------------------------
  std::pair<std::string, std::string> hwdb_names(const std::string& key) {
    if (!cfg_.hwdb_names) return {};
    if (auto it = names_.find(key); it != names_.end()) return it->second;
    std::pair<std::string, std::string> out;
    for (const auto& e : src_.hwdb(key)) {
      if (e.key == "ID_VENDOR_FROM_DATABASE") out.first = e.value;
      if (e.key == "ID_MODEL_FROM_DATABASE") out.second = e.value;
    }
    return names_.emplace(key, out).first->second;
  }
  std::pair<std::string, std::string> pci_names(std::optional<std::uint16_t> v, std::optional<std::uint16_t> d) {
    if (!v) return {};
    char key[40];
    if (d)
      std::snprintf(key, sizeof key, "pci:v%08Xd%08X", *v, *d);
    else
      std::snprintf(key, sizeof key, "pci:v%08X", *v);
    return hwdb_names(key);
  }

  const std::optional<RawDevice>& record(const std::string& syspath) {
    if (auto it = records_.find(syspath); it != records_.end()) return it->second;
    return records_.emplace(syspath, src_.device(syspath)).first->second;
  }

  // ---- PCI hops and controllers --------------------------------------------------------------------
  /// Add the PCI function at `syspath` (and, recursively, its PCI ancestors) as hops; returns its syspath
  /// when it is a PCI function, nullopt otherwise.
  std::optional<std::string> ensure_pci_hop(const std::optional<std::string>& syspath) {
    if (!syspath) return std::nullopt;
    if (builder_.contains(*syspath)) return syspath;
    const auto& rec = record(*syspath);
    if (!rec || rec->subsystem != "pci") return std::nullopt;
    auto up = ensure_pci_hop(rec->parent);
    AttrDir a(src_, *syspath);
    PciHopInfo hop;
    hop.syspath = *syspath;
    hop.bdf = rec->sysname;
    hop.vendor_id = a.parse<std::uint16_t>("vendor", parse_hex16);
    hop.device_id = a.parse<std::uint16_t>("device", parse_hex16);
    hop.class_code = a.parse<std::uint32_t>("class", parse_hex32);
    hop.driver = rec->driver;
    std::tie(hop.vendor_name, hop.model_name) = pci_names(hop.vendor_id, hop.device_id);
    hop.link = read_pcie_link(a);
    Link link;
    if (up) link = Link{LinkKind::Pci, std::nullopt, 1, hop.link};
    builder_.add(Node{NodeKind::PciHop, std::move(hop)}, up, link);
    return syspath;
  }

  void ensure_controller(const std::string& syspath, const std::string& root_hub) {
    if (builder_.contains(syspath)) return;
    ControllerInfo c;
    c.syspath = syspath;
    c.bdf = std::string(basename(syspath));
    const auto& rec = record(syspath);
    std::optional<std::string> up;
    if (!rec) {
      c.is_pci = false;
      warn(syspath, "host controller of " + root_hub + " is not in the device tree; its details are unknown");
    } else {
      c.is_pci = rec->subsystem == "pci";
      c.driver = rec->driver;
      AttrDir a(src_, syspath);
      if (c.is_pci) {
        up = ensure_pci_hop(rec->parent);
        c.vendor_id = a.parse<std::uint16_t>("vendor", parse_hex16);
        c.device_id = a.parse<std::uint16_t>("device", parse_hex16);
        c.subsystem_vendor_id = a.parse<std::uint16_t>("subsystem_vendor", parse_hex16);
        c.subsystem_device_id = a.parse<std::uint16_t>("subsystem_device", parse_hex16);
        c.class_code = a.parse<std::uint32_t>("class", parse_hex32);
        if (c.class_code) c.kind = hcd_kind_from_class(*c.class_code).value_or(HcdKind::Unknown);
        c.link = read_pcie_link(a);
        std::tie(c.vendor_name, c.model_name) = pci_names(c.vendor_id, c.device_id);
      }
    }
    if (c.kind == HcdKind::Unknown) c.kind = hcd_kind_from_driver(c.driver);
    Link link;
    if (up) link = Link{LinkKind::Pci, std::nullopt, 1, c.link};
    builder_.add(Node{NodeKind::Controller, std::move(c)}, up, link);
    controllers_.push_back(syspath);
  }

  /// EHCI companions: the UHCI/OHCI functions in the same PCI slot as an EHCI function.
  void assign_companions() {
    for (const auto& e : controllers_) {
      auto* en = builder_.get(e);
      auto& ec = en->as<ControllerInfo>();
      if (ec.kind != HcdKind::Ehci || !ec.is_pci) continue;
      auto ea = parse_pci_address(ec.bdf);
      if (!ea) continue;
      for (const auto& o : controllers_) {
        auto& oc = builder_.get(o)->as<ControllerInfo>();
        if (oc.kind != HcdKind::Uhci && oc.kind != HcdKind::Ohci) continue;
        auto oa = parse_pci_address(oc.bdf);
        if (!oa || !oa->same_slot(*ea)) continue;
        ec.companions.push_back(oc.bdf);
        oc.companions.push_back(ec.bdf);
      }
      std::sort(ec.companions.begin(), ec.companions.end());
    }
  }

  // ---- USB devices and ports -------------------------------------------------------------------------
  static std::string hub_interface_name(const UsbDeviceInfo& d, std::optional<unsigned> config) {
    if (d.ports.empty()) return std::to_string(d.busnum) + "-0:1.0";
    return d.name + ":" + std::to_string(config.value_or(1)) + ".0";
  }

  void add_usb_device(const RawDevice& r) {
    const auto name = parse_usb_name(r.sysname);
    if (!name || name->config) {
      warn(r.syspath, "USB device name '" + r.sysname + "' is not of the form usbN or B-P.P");
      return;
    }
    AttrDir a(src_, r.syspath);
    UsbDeviceInfo d;
    d.syspath = r.syspath;
    d.name = r.sysname;
    // uevent (already read by the source) carries BUSNUM, DEVNUM, PRODUCT=vid/pid/bcdDevice and
    // TYPE=class/subclass/protocol; the attributes are the fallback.
    const auto prop = [&](std::string_view key) -> std::optional<std::string_view> {
      auto it = r.properties.find(key);
      return it == r.properties.end() ? std::nullopt : std::optional<std::string_view>(it->second);
    };
    if (auto v = prop("BUSNUM")) d.busnum = to_unsigned(*v).value_or(0);
    if (auto v = prop("DEVNUM")) d.devnum = to_unsigned(*v).value_or(0);
    if (auto v = prop("PRODUCT"); v && parse_triplet(*v, 16)) {
      const auto t = *parse_triplet(*v, 16);
      if (t[0] <= 0xffff && t[1] <= 0xffff && t[2] <= 0xffff) {
        d.vendor_id = static_cast<std::uint16_t>(t[0]);
        d.product_id = static_cast<std::uint16_t>(t[1]);
        d.bcd_device = static_cast<std::uint16_t>(t[2]);
      }
    }
    if (auto v = prop("TYPE"); v && parse_triplet(*v, 10) && (*parse_triplet(*v, 10))[0] <= 0xff)
      d.device_class = static_cast<std::uint8_t>((*parse_triplet(*v, 10))[0]);
    if (d.busnum == 0) d.busnum = a.parse<unsigned>("busnum", to_unsigned).value_or(name->bus);
    if (d.devnum == 0) d.devnum = a.parse<unsigned>("devnum", to_unsigned).value_or(0);
    d.ports = name->ports;
    if (!d.vendor_id) d.vendor_id = a.parse<std::uint16_t>("idVendor", parse_hex16);
    if (!d.product_id) d.product_id = a.parse<std::uint16_t>("idProduct", parse_hex16);
    if (!d.bcd_device) d.bcd_device = a.parse<std::uint16_t>("bcdDevice", parse_hex16);
    d.manufacturer = a.get("manufacturer");
    d.product = a.get("product");
    d.serial = a.get("serial");
    if (auto sp = a.get("speed")) d.speed = parse_speed(*sp);
    if (!d.device_class) d.device_class = a.parse<std::uint8_t>("bDeviceClass", parse_hex8);
    d.removable = a.get("removable");
    d.power_control = a.get("power/control");
    d.driver = r.driver;
    const bool is_hub = d.ports.empty() || d.device_class == 0x09;
    // Lanes exist only on SuperSpeed links (a USB 2.0 link has one); hubs carry maxchild and the active
    // configuration that names their interface.
    if (!d.speed || is_superspeed(*d.speed)) {
      d.rx_lanes = a.parse<unsigned>("rx_lanes", to_unsigned);
      d.tx_lanes = a.parse<unsigned>("tx_lanes", to_unsigned);
    }
    std::optional<unsigned> config;
    if (is_hub) {
      d.maxchild = a.parse<unsigned>("maxchild", to_unsigned);
      config = a.parse<unsigned>("bConfigurationValue", to_unsigned);
    } else {
      d.maxchild = 0;
    }
    for (const auto& entry : a.entries())
      if (entry.size() > d.name.size() + 1 && entry.starts_with(d.name) && entry[d.name.size()] == ':')
        listed_interfaces_.push_back(r.syspath + "/" + entry);
    if (d.ports.empty())  // root hub interface "B-0:1.0"
      for (const auto& entry : a.entries())
        if (entry.starts_with(std::to_string(d.busnum) + "-0:")) listed_interfaces_.push_back(r.syspath + "/" + entry);

    // Descriptors: the interfaces' alternate settings, and the device/config descriptor fields the kernel's
    // attributes are printed from (`version` is "%2x.%02x" of bcdUSB; bMaxPower is in 2 mA units, 8 mA at
    // SuperSpeed), so those attributes need no read of their own.
    UsbDescriptors desc;
    if (auto bytes = a.binary("descriptors")) {
      desc = parse_usb_descriptors(*bytes);
      if (desc.truncated) warn(r.syspath, "descriptors file is truncated; alternate settings may be incomplete");
      if (desc.device) {
        d.bcd_usb = desc.device->bcd_usb;
        char v[16];
        std::snprintf(v, sizeof v, "%2x.%02x", desc.device->bcd_usb >> 8, desc.device->bcd_usb & 0xff);
        d.version = v;
        d.num_configurations = desc.device->num_configurations;
        if (!d.device_class) d.device_class = desc.device->device_class;
        if (!d.vendor_id) d.vendor_id = desc.device->vendor_id;
        if (!d.product_id) d.product_id = desc.device->product_id;
      }
      if (desc.configs.size() == 1 && d.speed)
        d.max_power_ma = desc.configs.front().max_power_raw * (is_superspeed(*d.speed) ? 8u : 2u);
    }
    if (!desc.device) {
      if (auto v = a.get("version")) {
        d.version = *v;
        d.bcd_usb = parse_bcd_version(*v);
      }
      d.num_configurations = a.parse<unsigned>("bNumConfigurations", to_unsigned);
    }
    if (!d.max_power_ma) d.max_power_ma = a.parse<unsigned>("bMaxPower", parse_max_power);
    if (auto bos = a.binary("bos_descriptors")) {
      if (auto cap = parse_bos_descriptors(*bos).capable_speed()) {
        d.capable_speed = cap;
        d.capable_from_bos = true;
      }
    }
    if (!d.capable_speed && d.bcd_usb) d.capable_speed = speed_from_bcd_usb(*d.bcd_usb);
    // A device can never be capable of less than it negotiated (bcdUSB 2.10 devices running at 5000 exist).
    if (d.speed && d.capable_speed && *d.speed > *d.capable_speed && *d.speed != UsbSpeed::Wireless)
      d.capable_speed = d.speed;
    if (d.vendor_id && d.product_id && cfg_.hwdb_names) {
      std::tie(d.vendor_name, std::ignore) = hwdb_names("usb:v" + upper_hex4(*d.vendor_id));
      d.model_name = hwdb_names("usb:v" + upper_hex4(*d.vendor_id) + "p" + upper_hex4(*d.product_id)).second;
    }

    const bool root = d.ports.empty();
    const NodeKind kind = root ? NodeKind::RootHub : (d.device_class == 0x09 ? NodeKind::Hub : NodeKind::Device);

    // Ports of this hub, from maxchild.
    if (d.maxchild && *d.maxchild > 0) {
      const std::string intf = r.syspath + "/" + hub_interface_name(d, config);
      for (unsigned p = 1; p <= *d.maxchild && p <= 255; ++p)
        seed_port(PortSeed{r.syspath, d.name, p, intf + "/" + port_name_for(d.name, p), false});
    }

    std::optional<std::string> up;
    Link link;
    if (root) {
      const std::string controller = r.parent ? *r.parent : std::string(dirname(r.syspath));
      ensure_controller(controller, d.name);
      up = controller;
    } else {
      // The port this device is plugged into: the `port` link (kernel >= 4.x), else derived from the name.
      const std::string hub_syspath(dirname(r.syspath));
      UsbName hub_name{d.busnum, {d.ports.begin(), d.ports.end() - 1}, std::nullopt, std::nullopt};
      const std::string hub = format_usb_name(hub_name);
      std::string port;
      const auto port_link = a.link("port");
      if (port_link)
        port = *port_link;
      else
        port = hub_syspath + "/" + hub_interface_name(UsbDeviceInfo{.name = hub, .busnum = d.busnum,
                                                                    .ports = hub_name.ports},
                                                      hub_config(hub_syspath)) +
               "/" + port_name_for(hub, d.ports.back());
      up = seed_port(PortSeed{hub_syspath, hub, d.ports.back(), port, port_link.has_value()});
      link = Link{LinkKind::Usb, d.speed, d.rx_lanes.value_or(1), {}};
    }
    descriptors_.emplace(r.syspath, std::move(desc));
    device_ids_.emplace(r.syspath, std::pair{d.vendor_id, d.product_id});
    if (!builder_.add(Node{kind, std::move(d)}, up, link)) warn(r.syspath, "USB device enumerated twice");
  }

  /// Record a port once per (hub, number); a port seen in sysfs replaces a derived name. Returns the
  /// syspath the port will have.
  std::string seed_port(PortSeed seed) {
    auto key = std::pair{seed.hub_syspath, seed.number};
    auto it = ports_.find(key);
    if (it == ports_.end()) return ports_.emplace(key, std::move(seed)).first->second.syspath;
    if (seed.authoritative && !it->second.authoritative) it->second = std::move(seed);
    return it->second.syspath;
  }

  static std::string upper_hex4(std::uint16_t v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04X", v);
    return buf;
  }

  std::optional<unsigned> hub_config(const std::string& hub_syspath) {
    if (auto* n = builder_.get(hub_syspath); n && n->as<UsbDeviceInfo>().ports.empty()) return 1;
    auto v = src_.attribute(hub_syspath, "bConfigurationValue");
    return v ? to_unsigned(*v) : std::nullopt;
  }

  void add_port(std::string syspath, const PortSeed& seed) {
    AttrDir a(src_, syspath);
    if (!a.exists() && !seed.authoritative) {
      // Kernels 3.5-3.11 named port directories "portN".
      const std::string old = std::string(dirname(syspath)) + "/port" + std::to_string(seed.number);
      if (AttrDir o(src_, old); o.exists()) {
        syspath = old;
        a = std::move(o);
      }
    }
    PortInfo p;
    p.syspath = syspath;
    p.name = port_name_for(seed.hub_name, seed.number);  // canonical even where the kernel said "port3"
    p.number = seed.number;
    p.hub_name = seed.hub_name;
    p.synthesized = !a.exists();
    if (auto* hub = builder_.get(seed.hub_syspath)) p.hub_speed = hub->as<UsbDeviceInfo>().speed;
    p.connect_type = a.get("connect_type");
    p.location = a.get("location");
    p.peer = a.link("peer");
    p.state = a.get("state");
    p.over_current_count = a.parse<unsigned>("over_current_count", to_unsigned);
    p.quirks = a.get("quirks");
    p.usb3_lpm_permit = a.get("usb3_lpm_permit");
    if (a.has("physical_location")) {
      PhysicalLocation loc;
      loc.panel = a.get("physical_location/panel");
      loc.vertical_position = a.get("physical_location/vertical_position");
      loc.horizontal_position = a.get("physical_location/horizontal_position");
      if (auto v = a.get("physical_location/dock")) loc.dock = parse_yes_no(*v);
      if (auto v = a.get("physical_location/lid")) loc.lid = parse_yes_no(*v);
      if (loc != PhysicalLocation{}) p.physical_location = loc;
    }
    builder_.add(Node{NodeKind::Port, std::move(p)}, seed.hub_syspath);
  }

  // ---- interfaces ------------------------------------------------------------------------------------
  const std::vector<StorageQuirk>& storage_quirks() {
    if (!quirks_) {
      auto text = src_.attribute("/sys/module/usb_storage/parameters", "quirks");
      quirks_ = text ? parse_storage_quirks(*text) : std::vector<StorageQuirk>{};
    }
    return *quirks_;
  }

  void add_interface(const RawDevice& r) {
    const std::string dev(dirname(r.syspath));
    AttrDir a(src_, r.syspath, false);
    InterfaceInfo i;
    i.syspath = r.syspath;
    i.name = r.sysname;
    const auto name = parse_usb_name(r.sysname);
    // The kernel names an interface "<device>:<bConfigurationValue>.<bInterfaceNumber>".
    if (name && name->interface && *name->interface < 256)
      i.number = static_cast<std::uint8_t>(*name->interface);
    else
      i.number = a.parse<std::uint8_t>("bInterfaceNumber", parse_hex8).value_or(0);
    // uevent INTERFACE=class/subclass/protocol is the active alt setting's; attributes are the fallback.
    if (auto it = r.properties.find("INTERFACE"); it != r.properties.end())
      if (auto t = parse_triplet(it->second, 10); t && (*t)[0] <= 0xff && (*t)[1] <= 0xff && (*t)[2] <= 0xff) {
        i.interface_class = static_cast<std::uint8_t>((*t)[0]);
        i.interface_subclass = static_cast<std::uint8_t>((*t)[1]);
        i.interface_protocol = static_cast<std::uint8_t>((*t)[2]);
      }
    if (!i.interface_class) i.interface_class = a.parse<std::uint8_t>("bInterfaceClass", parse_hex8);
    if (!i.interface_subclass) i.interface_subclass = a.parse<std::uint8_t>("bInterfaceSubClass", parse_hex8);
    if (!i.interface_protocol) i.interface_protocol = a.parse<std::uint8_t>("bInterfaceProtocol", parse_hex8);
    i.driver = r.driver;
    if (i.driver.empty())
      if (auto l = a.link("driver")) i.driver = std::string(basename(*l));
    bool may_have_string = true;
    if (auto it = descriptors_.find(dev); it != descriptors_.end()) {
      std::optional<std::uint8_t> config;
      if (name && name->config) config = static_cast<std::uint8_t>(*name->config);
      i.alt_settings = it->second.alt_settings(i.number, config);
      may_have_string = it->second.may_have_interface_string(i.number, config);
    }
    // No iInterface in any alt setting: the kernel created no `interface` attribute, nothing to probe.
    if (may_have_string) i.interface_string = a.get("interface");
    // The active alt setting: the only one there is, else bAlternateSetting; bNumEndpoints from its descriptor.
    if (i.alt_settings.size() == 1)
      i.alt_setting = i.alt_settings.front().number;
    else
      i.alt_setting = a.parse<std::uint8_t>("bAlternateSetting", [](std::string_view v) {
        auto n = parse_uint(v);
        return n && *n < 256 ? n : std::nullopt;
      });
    for (const auto& alt : i.alt_settings)
      if (i.alt_setting && alt.number == *i.alt_setting) i.num_endpoints = alt.num_endpoints;
    if (!i.num_endpoints) i.num_endpoints = a.parse<std::uint8_t>("bNumEndpoints", parse_hex8);
    for (const auto& alt : i.alt_settings)
      if (alt.interface_class == 0x08 && alt.interface_subclass == 0x06 && alt.interface_protocol == 0x62)
        i.uas_capable = true;
    if (i.interface_class == 0x08 && i.interface_subclass == 0x06 && i.interface_protocol == 0x62)
      i.uas_capable = true;

    if (i.driver == "uas")
      i.storage = StorageProtocol::Uas;
    else if (i.driver == "usb-storage" || i.driver.starts_with("ums-") || i.driver.starts_with("ums_"))
      i.storage = StorageProtocol::Bot;
    else if (i.interface_class == 0x08)
      i.storage = StorageProtocol::Other;
    if (i.uas_capable && i.storage == StorageProtocol::Bot) i.uas_blocked_reason = uas_blocked_reason(dev);
    builder_.add(Node{NodeKind::Interface, std::move(i)}, dev);
  }

  /// Why a UAS-capable interface is bound to usb-storage, when sysfs shows it.
  std::optional<std::string> uas_blocked_reason(const std::string& dev) {
    auto ids = device_ids_.find(dev);
    if (ids != device_ids_.end() && ids->second.first && ids->second.second) {
      for (const auto& q : storage_quirks())
        if (q.vendor_id == *ids->second.first && q.product_id == *ids->second.second && q.ignore_uas())
          return "usb-storage quirks parameter sets 'u' (IGNORE_UAS) for " + hex4(q.vendor_id) + ":" +
                 hex4(q.product_id);
    }
    // The controller: UHCI/OHCI have no scatter-gather, which the uas driver requires.
    const Node* n = builder_.get(dev);
    if (!n) return std::nullopt;
    const auto& info = n->as<UsbDeviceInfo>();
    for (const auto& c : controllers_) {
      if (!dev.starts_with(c + "/")) continue;
      const auto kind = builder_.get(c)->as<ControllerInfo>().kind;
      if (kind == HcdKind::Uhci || kind == HcdKind::Ohci)
        return std::string("host controller is ") + std::string(to_string(kind)) +
               " (USB 1.1, no scatter-gather): the uas driver cannot bind";
    }
    if (info.speed && *info.speed <= UsbSpeed::Full)
      return "device runs at " + std::string(to_sysfs_string(*info.speed)) + " Mb/s (USB 1.1): uas needs high speed or better";
    return std::nullopt;
  }

  // ---- SCSI and block --------------------------------------------------------------------------------
  /// The nearest scanned ancestor of `syspath` (by path prefix), and its kind.
  std::optional<std::pair<std::string, NodeKind>> nearest_scanned(std::string_view syspath) {
    for (auto p = dirname(syspath); !p.empty(); p = dirname(p))
      if (auto* n = builder_.get(p)) return std::pair{std::string(p), n->kind};
    return std::nullopt;
  }

  void add_scsi_device(const std::string& syspath) {
    if (builder_.contains(syspath)) return;
    auto up = nearest_scanned(syspath);
    if (!up || up->second != NodeKind::Interface) return;  // not below USB: the disk is listed on its own
    AttrDir a(src_, syspath, false);
    ScsiDeviceInfo s;
    s.syspath = syspath;
    s.hctl = std::string(basename(syspath));
    const RawDevice r{.syspath = syspath};
    for (auto p = std::string_view(r.syspath); !p.empty(); p = dirname(p))
      if (basename(p).starts_with("host") && parse_uint(basename(p).substr(4))) {
        s.host = std::string(basename(p));
        s.host_proc_name = src_.attribute(std::string(p) + "/scsi_host/" + s.host, "proc_name");
        break;
      }
    s.vendor = trimmed(a.get("vendor"));
    s.model = trimmed(a.get("model"));
    s.rev = trimmed(a.get("rev"));
    s.type = a.parse<unsigned>("type", to_unsigned);
    s.queue_depth = a.parse<unsigned>("queue_depth", to_unsigned);
    builder_.add(Node{NodeKind::ScsiDevice, std::move(s)}, up->first);
  }

  void load_mountinfo() {
    if (cfg_.mountinfo_path.empty()) return;
    if (auto text = src_.read_text_file(cfg_.mountinfo_path)) mounts_ = parse_mountinfo(*text);
  }
  std::vector<std::string> mounts_of(const std::optional<std::string>& devnum) {
    if (!devnum) return {};
    auto it = mounts_.find(trim(*devnum));
    return it == mounts_.end() ? std::vector<std::string>{} : it->second;
  }

  /// "MAJOR:MINOR": the `dev` attribute prints the same numbers as the uevent's MAJOR and MINOR, which the
  /// source has already read, so the attribute is the fallback only.
  static std::optional<std::string> devnum_of(const RawDevice& r, const AttrDir& a) {
    auto major = r.properties.find("MAJOR");
    auto minor = r.properties.find("MINOR");
    if (major != r.properties.end() && minor != r.properties.end() && parse_uint(major->second) &&
        parse_uint(minor->second))
      return major->second + ":" + minor->second;
    return a.get("dev");
  }

  void add_disk(const RawDevice& r) {
    const bool is_virtual = r.syspath.find("/devices/virtual/") != std::string::npos;
    if (is_virtual && !cfg_.include_virtual_block) return;
    AttrDir a(src_, r.syspath, false);
    BlockInfo b;
    b.syspath = r.syspath;
    b.name = r.sysname;
    b.devnode = r.devnode.empty() ? "/dev/" + r.sysname : r.devnode;
    b.devnum = devnum_of(r, a);
    if (auto s = a.get("size"); s)
      if (auto v = parse_uint(*s)) b.size_bytes = *v * 512;
    b.removable = a.parse<bool>("removable", parse_yes_no);
    b.read_only = a.parse<bool>("ro", parse_yes_no);
    if (a.has("queue")) {
      b.rotational = a.parse<bool>("queue/rotational", parse_yes_no);
      b.logical_block_size = a.parse<unsigned>("queue/logical_block_size", to_unsigned);
      b.physical_block_size = a.parse<unsigned>("queue/physical_block_size", to_unsigned);
      b.max_sectors_kb = a.parse<unsigned>("queue/max_sectors_kb", to_unsigned);
      b.max_hw_sectors_kb = a.parse<unsigned>("queue/max_hw_sectors_kb", to_unsigned);
      b.nr_requests = a.parse<unsigned>("queue/nr_requests", to_unsigned);
    }
    b.mountpoints = mounts_of(b.devnum);
    b.holders = src_.list(r.syspath, "holders");

    // The SCSI device the disk belongs to (".../6:0:0:0/block/sda"), USB or not.
    if (auto scsi = dirname(dirname(r.syspath)); basename(dirname(r.syspath)) == "block" && !scsi.empty() &&
                                                  parse_hctl_like(basename(scsi))) {
      b.hctl = std::string(basename(scsi));
      guarded(std::string(scsi), [&] { add_scsi_device(std::string(scsi)); });
      if (auto* n = builder_.get(scsi))
        b.queue_depth = n->as<ScsiDeviceInfo>().queue_depth;
      else if (auto qd = src_.attribute(scsi, "queue_depth"))
        b.queue_depth = to_unsigned(*qd);
    }
    std::optional<std::string> up;
    if (auto near = nearest_scanned(r.syspath);
        near && (near->second == NodeKind::ScsiDevice || near->second == NodeKind::Interface)) {
      up = near->first;
      b.usb = true;
      b.transport = "usb";
      if (near->second == NodeKind::ScsiDevice) {
        const auto& s = builder_.get(near->first)->as<ScsiDeviceInfo>();
        b.vendor = s.vendor;
        b.model = s.model;
      }
      if (auto dev = nearest_usb_device(r.syspath)) b.serial = dev->serial;
    } else {
      b.transport = transport_from_syspath(r.syspath);
      if (b.transport == "scsi" || b.transport == "unknown") b.transport = transport_from_pci_class(r.syspath, b.transport);
      b.vendor = trimmed(a.get("device/vendor"));
      b.model = trimmed(a.get("device/model"));
      b.serial = trimmed(a.get("device/serial"));
    }
    if (!builder_.add(Node{NodeKind::Block, std::move(b)}, up)) warn(r.syspath, "block device enumerated twice");
  }

  /// Old kernels put SATA disks directly below the PCI function (no ataN directory): the storage
  /// controller's PCI class tells the transport (0x0106 SATA, 0x0101 IDE, 0x0108 NVMe, 0x0107 SAS).
  std::string transport_from_pci_class(std::string_view syspath, std::string fallback) {
    for (auto p = dirname(syspath); !p.empty() && p != "/sys/devices"; p = dirname(p)) {
      const auto name = basename(p);
      if (!parse_pci_address(name)) continue;
      auto cls = src_.attribute(p, "class");
      auto code = cls ? parse_hex32(*cls) : std::nullopt;
      if (!code) return fallback;
      switch (*code >> 8) {
        case 0x0106: return "sata";
        case 0x0101: return "ata";
        case 0x0107: return "sas";
        case 0x0108: return "nvme";
        default: return fallback;
      }
    }
    return fallback;
  }

  const UsbDeviceInfo* nearest_usb_device(std::string_view syspath) {
    for (auto p = dirname(syspath); !p.empty(); p = dirname(p))
      if (auto* n = builder_.get(p); n && (n->kind == NodeKind::Device || n->kind == NodeKind::Hub))
        return &n->as<UsbDeviceInfo>();
    return nullptr;
  }

  void add_partition(const RawDevice& r) {
    const std::string disk = r.parent ? *r.parent : std::string(dirname(r.syspath));
    Node* n = builder_.get(disk);
    if (!n || n->kind != NodeKind::Block) return;  // partition of a skipped (virtual) disk
    AttrDir a(src_, r.syspath, false);
    Partition p;
    p.name = r.sysname;
    if (auto s = a.get("size"))
      if (auto v = parse_uint(*s)) p.size_bytes = *v * 512;
    p.mountpoints = mounts_of(devnum_of(r, a));
    p.holders = src_.list(r.syspath, "holders");
    auto& parts = n->as<BlockInfo>().partitions;
    parts.push_back(std::move(p));
    std::sort(parts.begin(), parts.end(), [](const Partition& x, const Partition& y) { return natural_less(x.name, y.name); });
  }

  DeviceSource& src_;
  const ScanConfig& cfg_;
  TopologyBuilder builder_;
  std::vector<Diagnostic> diags_;
  std::map<std::string, std::optional<RawDevice>, std::less<>> records_;
  std::map<std::string, std::pair<std::string, std::string>, std::less<>> names_;
  std::map<std::pair<std::string, unsigned>, PortSeed> ports_;
  std::map<std::string, UsbDescriptors, std::less<>> descriptors_;
  std::map<std::string, std::pair<std::optional<std::uint16_t>, std::optional<std::uint16_t>>, std::less<>> device_ids_;
  std::vector<std::string> controllers_;
  std::vector<std::string> listed_interfaces_;
  std::optional<std::vector<StorageQuirk>> quirks_;
  std::map<std::string, std::vector<std::string>, std::less<>> mounts_;
};

}  // namespace

ScanResult scan(DeviceSource& source, const ScanConfig& config) { return Scanner(source, config).run(); }

ScanResult scan_system(const ScanConfig& config) {
  UdevSource source;
  return scan(source, config);
}

}  // namespace usbsat::topology

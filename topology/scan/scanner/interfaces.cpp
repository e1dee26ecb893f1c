// USB interfaces: class triplets, alternate settings (from the device's descriptors), the bound driver and
// the storage protocol it means (uas: UAS, usb-storage: Bulk-Only), and why a UAS-capable one runs BOT.
#include "topology/scan/scanner/attr_dir.hpp"
#include "topology/scan/scanner/scanner.hpp"

namespace usbsat::topology::scanner {

const std::optional<std::string>& Scanner::storage_quirks_text() {
  if (!quirks_text_) quirks_text_ = src_.attribute("/sys/module/usb_storage/parameters", "quirks");
  return *quirks_text_;
}

const std::vector<StorageQuirk>& Scanner::storage_quirks() {
  if (!quirks_) {
    const auto& text = storage_quirks_text();
    quirks_ = text ? parse_storage_quirks(*text) : std::vector<StorageQuirk>{};
  }
  return *quirks_;
}

void Scanner::add_interface(const RawDevice& r) {
  const std::string dev(path_dirname(r.syspath));
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
  if (const auto v = r.property("INTERFACE"))
    if (auto t = parse_triplet(*v, 10); t && (*t)[0] <= 0xff && (*t)[1] <= 0xff && (*t)[2] <= 0xff) {
      i.interface_class = static_cast<std::uint8_t>((*t)[0]);
      i.interface_subclass = static_cast<std::uint8_t>((*t)[1]);
      i.interface_protocol = static_cast<std::uint8_t>((*t)[2]);
    }
  if (!i.interface_class) i.interface_class = a.parse<std::uint8_t>("bInterfaceClass", parse_hex8);
  if (!i.interface_subclass) i.interface_subclass = a.parse<std::uint8_t>("bInterfaceSubClass", parse_hex8);
  if (!i.interface_protocol) i.interface_protocol = a.parse<std::uint8_t>("bInterfaceProtocol", parse_hex8);
  i.driver = r.driver;
  if (i.driver.empty())
    if (auto l = a.link("driver")) i.driver = std::string(path_basename(*l));
  bool may_have_string = true;
  if (auto it = descriptors_.find(dev); it != descriptors_.end()) {
    std::optional<std::uint8_t> config;
    if (name && name->config) config = static_cast<std::uint8_t>(*name->config);
    i.alt_settings = it->second.alt_settings(i.number, config);
    may_have_string = it->second.may_have_interface_string(i.number, config);
  }
  // No iInterface in any alt setting: the kernel created no `interface` attribute, nothing to probe.
  if (may_have_string && full()) i.interface_string = a.trimmed("interface");
  // The active alt setting: the only one there is, else bAlternateSetting; bNumEndpoints from its descriptor.
  // (The tree prints neither.)
  if (i.alt_settings.size() == 1)
    i.alt_setting = i.alt_settings.front().number;
  else if (full())
    i.alt_setting = a.parse<std::uint8_t>("bAlternateSetting", [](std::string_view v) {
      auto n = parse_uint(v);
      return n && *n < 256 ? n : std::nullopt;
    });
  for (const auto& alt : i.alt_settings)
    if (i.alt_setting && alt.number == *i.alt_setting) i.num_endpoints = alt.num_endpoints;
  if (!i.num_endpoints && full()) i.num_endpoints = a.parse<std::uint8_t>("bNumEndpoints", parse_hex8);
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
std::optional<std::string> Scanner::uas_blocked_reason(const std::string& dev) {
  auto ids = device_ids_.find(dev);
  if (ids != device_ids_.end() && ids->second.first && ids->second.second) {
    for (const auto& q : storage_quirks())
      if (q.vendor_id == *ids->second.first && q.product_id == *ids->second.second && q.ignore_uas())
        return "usb-storage quirks parameter sets 'u' (IGNORE_UAS) for " +
               format_vid_pid(q.vendor_id, q.product_id);
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
    return "device runs at " + std::string(to_sysfs_string(*info.speed)) +
           " Mb/s (USB 1.1): uas needs high speed or better";
  return std::nullopt;
}

}  // namespace usbsat::topology::scanner

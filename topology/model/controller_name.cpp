#include "topology/model/controller_name.hpp"

#include "topology/base/string_table.hpp"

namespace usbsat::topology {

namespace {

constexpr StringTable<HcdKind, 6> kHcdKindWords{{{
    {HcdKind::Uhci, "UHCI"},
    {HcdKind::Ohci, "OHCI"},
    {HcdKind::Ehci, "EHCI"},
    {HcdKind::Xhci, "xHCI"},
    {HcdKind::Usb4, "USB4"},
    {HcdKind::Otg, "OTG"},
}}};

}  // namespace

std::string_view hcd_label(HcdKind k) {
  return kHcdKindWords.name(k, "unknown");
}

std::string controller_name(HcdKind k, std::string_view bdf) {
  std::string out(hcd_label(k));
  out += " controller ";
  out += bdf;
  return out;
}

}  // namespace usbsat::topology

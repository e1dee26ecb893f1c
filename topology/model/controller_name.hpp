#pragma once
/// How a USB host controller is named in sentences, tables and pictures, beside its kind (node.hpp). The
/// wording home (topology/words/describe.hpp) includes this; the capacity model's resource labels use it
/// too, which cannot include the wording home (it sits above them).
#include <string>
#include <string_view>

#include "topology/model/node.hpp"

namespace usbsat::topology {

/// Controller kind as users know it: "xHCI", "EHCI", "OHCI", "UHCI", "USB4", "OTG", "unknown" (to_string() of
/// HcdKind is the JSON token).
std::string_view hcd_label(HcdKind k);
/// A controller in sentences and pictures: "xHCI controller 0000:03:00.0". `bdf` comes from the model, which
/// is safe to print after the scan boundary (safe_source.hpp).
std::string controller_name(HcdKind k, std::string_view bdf);

}  // namespace usbsat::topology

#include "topology/scan/companions.hpp"

#include <algorithm>

#include "topology/model/sysfs_parse.hpp"

namespace usbsat::topology {

void assign_companions(const std::vector<ControllerInfo*>& controllers) {
  for (ControllerInfo* ec : controllers) {
    if (ec->kind != HcdKind::Ehci || !ec->is_pci) continue;
    auto ea = parse_pci_address(ec->bdf);
    if (!ea) continue;
    for (ControllerInfo* oc : controllers) {
      if (oc->kind != HcdKind::Uhci && oc->kind != HcdKind::Ohci) continue;
      auto oa = parse_pci_address(oc->bdf);
      if (!oa || !oa->same_slot(*ea)) continue;
      ec->companions.push_back(oc->bdf);
      oc->companions.push_back(ec->bdf);
    }
    std::sort(ec->companions.begin(), ec->companions.end());
  }
}

}  // namespace usbsat::topology

#pragma once
/// EHCI companion controllers: the UHCI/OHCI functions in the same PCI slot as an EHCI function carry its
/// full/low-speed devices. One rule for every platform's scan.
#include <vector>

#include "topology/model/node.hpp"

namespace usbsat::topology {

/// Fill `companions` of every EHCI and of every UHCI/OHCI in the same PCI slot (EHCI's list sorted).
void assign_companions(const std::vector<ControllerInfo*>& controllers);

}  // namespace usbsat::topology

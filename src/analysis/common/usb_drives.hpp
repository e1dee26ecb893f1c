#pragma once
/// The one answer to "which disks are the USB drives?", used by every command (doctor, plan, plan --predict,
/// saturate, and what comes later).
///
/// The rule: one drive per USB whole-disk block device, i.e. one per medium. A multi-LUN card reader with
/// two cards is two drives everywhere (they share the reader's one USB link, which the model then sees);
/// an empty slot (no medium: size 0) is listed with has_media = false and is never loaded or predicted.
#include <optional>
#include <string>
#include <vector>

#include "topology/model/topology.hpp"

namespace usbsat::analysis::common {

struct UsbDrive {
  topology::Vertex block{};   ///< the whole-disk block device (NodeKind::Block)
  topology::Vertex device{};  ///< the USB device it belongs to (NodeKind::Device)
  std::string name;           ///< "sdb"
  std::string devnode;        ///< "/dev/sdb"
  bool has_media = true;      ///< false: an empty card-reader slot (size 0)
};

/// Every USB drive of `t`, media or not, in block_devices() order (sda, sdb, ...).
std::vector<UsbDrive> usb_drives(const topology::Topology& t);
/// The USB drives with media: the ones that are loaded, predicted and planned.
std::vector<UsbDrive> usb_drives_with_media(const topology::Topology& t);

}  // namespace usbsat::analysis::common

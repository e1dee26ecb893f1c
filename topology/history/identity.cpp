#include "topology/history/identity.hpp"

#include <cctype>

#include "topology/base/text.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/recording/serials.hpp"

namespace usbsat::history {
namespace {

/// "h:" and 12 lower-case hex digits: a serial a recording already replaced by its pseudonym.
bool is_pseudonym(const std::string& s) {
  if (s.size() != 14 || !s.starts_with("h:")) return false;
  for (std::size_t i = 2; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i])) || std::isupper(static_cast<unsigned char>(s[i])))
      return false;
  return true;
}

}  // namespace

std::optional<DriveRecord> drive_identity(const topology::Topology& t, topology::Vertex block) {
  const auto* b = t[block].get_if<topology::BlockInfo>();
  const auto dev = topology::usb_device_of(t, block);
  if (!b || !dev || !b->size_bytes) return std::nullopt;
  const auto* u = t[*dev].get_if<topology::UsbDeviceInfo>();
  if (!u || !u->vendor_id || !u->product_id) return std::nullopt;
  DriveRecord d;
  d.vid_pid = topology::format_vid_pid(*u->vendor_id, *u->product_id);
  const std::string serial = u->serial.value_or("");
  d.serial = serial.empty() || is_pseudonym(serial) ? serial : topology::recording::pseudonym(serial);
  d.size_bytes = *b->size_bytes;
  d.key = drive_key(d.vid_pid, d.serial, d.size_bytes);
  d.model = u->product ? *u->product : u->model_name;
  return d;
}

Place place_of(const topology::Topology& t, topology::Vertex block) {
  Place p;
  if (const auto* b = t[block].get_if<topology::BlockInfo>()) p.device = b->name;
  const auto dev = topology::usb_device_of(t, block);
  if (!dev) return p;
  for (std::optional<topology::Vertex> cur = block; cur && cur != dev; cur = topology::parent(t, *cur))
    if (const auto* itf = t[*cur].get_if<topology::InterfaceInfo>())
      p.protocol = std::string(topology::to_string(itf->storage));
  if (const auto* u = t[*dev].get_if<topology::UsbDeviceInfo>(); u && u->speed)
    p.rate = std::string(topology::to_string(topology::usb_rate(*u->speed, u->rx_lanes.value_or(1))));
  if (const auto port = topology::parent(t, *dev))
    if (const auto* pi = t[*port].get_if<topology::PortInfo>()) p.connector = pi->name;
  if (const auto c = topology::controller_of(t, *dev)) p.controller = topology::node_id(t, *c);
  return p;
}

}  // namespace usbsat::history

#pragma once
/// Which drive a block device is, for the history store: its identity (store.hpp's DriveRecord key, the same
/// on any port and in a recording of the machine), and where it is now (the fields a Measurement records).
#include <optional>
#include <string>

#include "topology/history/store.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::history {

/// The identity of the USB whole disk `block`: vid:pid of its USB device, the pseudonym of its serial
/// (topology::recording::pseudonym(); a serial that is one already, as in a recording, stays: "" when the
/// device has none) and its size. nullopt when `block` is not below a USB device, or its ids or size are
/// unknown. `measurements` is empty.
std::optional<DriveRecord> drive_identity(const topology::Topology& t, topology::Vertex block);

/// Where `block` is now, as a Measurement records it: device, connector, rate, protocol, controller.
struct Place {
  std::string device, connector, rate, protocol, controller;
};
Place place_of(const topology::Topology& t, topology::Vertex block);

}  // namespace usbsat::history

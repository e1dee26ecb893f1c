// The describer's forms, one row per kind: every NodeKind through describe_node() and every ResourceKind a
// topology gives through path_resources()' labels, on the named machines. A new kind without a row fails.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <string>

#include "tests/support/machines.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/words/describe.hpp"

using namespace usbsat;
using namespace usbsat::topology;

namespace {

/// The first vertex of kind `k` in `t`.
Vertex first_of(const Topology& t, NodeKind k) {
  const auto vs = of_kind(t, k);
  REQUIRE_MESSAGE(!vs.empty(), "no ", to_string(k));
  return vs.front();
}

/// The label of the first resource of kind `k` on the path of a drive of `t` (drives in topology order).
std::string resource_label(const Topology& t, ResourceKind k) {
  for (Vertex b : of_kind(t, NodeKind::Block))
    for (const auto& r : path_resources(t, b))
      if (r.kind == k) return r.label;
  FAIL("no ", to_string(k), " in the machine");
  return {};
}

}  // namespace

TEST_CASE("describe table: every node kind through describe_node") {
  const auto card = testing::asm1042_card();  // root port, controller, root hubs, ports, a drive's nodes
  const auto ws = testing::workstation();     // an external hub
  const auto dock = testing::usb4_dock();     // USB4 routers
  const std::map<NodeKind, std::pair<const Topology*, std::string>> rows{
      {NodeKind::PciHop, {&card, "PCIe port 0000:00:1c.4 (Cannon Lake PCH PCI Express Root Port #5)"}},
      {NodeKind::Controller,
       {&card,
        "xHCI controller 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host Controller)"}},
      {NodeKind::RootHub, {&card, "root hub usb3"}},
      {NodeKind::Hub, {&ws, "hub 1-1 (USB2.1 Hub)"}},
      {NodeKind::Port, {&card, "port usb3-port1"}},
      {NodeKind::Device, {&card, "device 4-1 (Expansion HDD)"}},
      {NodeKind::Interface, {&card, "interface 4-1:1.0"}},
      {NodeKind::ScsiDevice, {&card, "SCSI device 4:0:0:0"}},
      {NodeKind::Block, {&card, "disk sda"}},
      {NodeKind::Router, {&dock, "router 0-0 (Example Host)"}},
  };
  unsigned kinds = 0;
  for (unsigned k = 0; to_string(static_cast<NodeKind>(k)) != "unknown"; ++k, ++kinds) {
    const auto kind = static_cast<NodeKind>(k);
    CAPTURE(to_string(kind));
    const auto row = rows.find(kind);
    REQUIRE_MESSAGE(row != rows.end(), "no row for node kind ", to_string(kind));
    const auto& [t, expected] = row->second;
    CHECK(describe_node(*t, first_of(*t, kind)) == expected);
  }
  CHECK(kinds == rows.size());
}

TEST_CASE("describe table: every resource kind a topology gives through path_resources' labels") {
  const auto card = testing::asm1042_card();  // drive link, controller, PCIe link
  const auto ws = testing::workstation();     // a hub uplink
  const auto ehci = testing::legacy_ehci();   // a shared EHCI bus
  const auto dock = testing::usb4_dock();     // a USB4 link's USB3 tunnel
  const auto tb3 = testing::tb3_dock();       // a Thunderbolt 3 link's PCIe tunnel
  struct Row {
    const Topology* t;
    std::string expected;
  };
  // Declared groups (`--group NAME=...@CAP`) have no topology: their label is the user's name.
  const std::map<ResourceKind, Row> rows{
      {ResourceKind::DriveLink, {&card, "USB 3.2 Gen 1 UAS link of 4-1 (Expansion HDD)"}},
      {ResourceKind::HubUplink, {&ws, "USB 2.0 uplink of hub 1-1 (USB2.1 Hub)"}},
      {ResourceKind::UsbBus, {&ehci, "USB 2.0 bus usb5 (ehci, shared by all its ports)"}},
      {ResourceKind::Controller,
       {&card,
        "xHCI controller 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host Controller)"}},
      {ResourceKind::Usb4Tunnel, {&dock, "USB3 tunnel of the USB4 link 0-1 (Example Dock)"}},
      {ResourceKind::PcieTunnel, {&tb3, "PCIe tunnel of the Thunderbolt 3 link 0-1 (Example Dock)"}},
      {ResourceKind::PcieLink,
       {&card,
        "PCIe 5 GT/s x1 link of 0000:03:00.0 (ASMedia Technology Inc. ASM1042 SuperSpeed USB Host "
        "Controller)"}},
  };
  unsigned kinds = 0;
  for (unsigned k = 0; to_string(static_cast<ResourceKind>(k)) != "unknown"; ++k) {
    const auto kind = static_cast<ResourceKind>(k);
    if (kind == ResourceKind::Declared) continue;
    ++kinds;
    CAPTURE(to_string(kind));
    const auto row = rows.find(kind);
    REQUIRE_MESSAGE(row != rows.end(), "no row for resource kind ", to_string(kind));
    CHECK(resource_label(*row->second.t, kind) == row->second.expected);
  }
  CHECK(kinds == rows.size());
}

#include <doctest/doctest.h>

#include "topology/model/builder.hpp"

using namespace usbsat::topology;

namespace {
const std::string kPci = "/sys/devices/pci0000:00/0000:00:14.0";

Node controller() {
  return {NodeKind::Controller,
          ControllerInfo{.syspath = kPci, .bdf = "0000:00:14.0", .kind = HcdKind::Xhci}};
}
Node root_hub(int bus, UsbSpeed s) {
  return {NodeKind::RootHub, UsbDeviceInfo{.syspath = kPci + "/usb" + std::to_string(bus),
                                           .name = "usb" + std::to_string(bus),
                                           .busnum = static_cast<unsigned>(bus),
                                           .speed = s}};
}
Node port(int bus, int n, std::optional<std::string> peer = {}) {
  const std::string hub = kPci + "/usb" + std::to_string(bus);
  const std::string name = "usb" + std::to_string(bus) + "-port" + std::to_string(n);
  return {NodeKind::Port, PortInfo{.syspath = hub + "/" + std::to_string(bus) + "-0:1.0/" + name,
                                   .name = name,
                                   .number = static_cast<unsigned>(n),
                                   .peer = peer}};
}
std::string port_path(int bus, int n) {
  return kPci + "/usb" + std::to_string(bus) + "/" + std::to_string(bus) + "-0:1.0/usb" +
         std::to_string(bus) + "-port" + std::to_string(n);
}
}  // namespace

TEST_CASE("builder orders children naturally, pairs peers into connectors and rejects duplicates") {
  TopologyBuilder b;
  // Added in scrambled order on purpose.
  CHECK(b.add(port(1, 10), kPci + "/usb1"));
  CHECK(b.add(port(2, 2, port_path(1, 2)), kPci + "/usb2"));
  CHECK(b.add(root_hub(2, UsbSpeed::Super), kPci));
  CHECK(b.add(port(1, 2, port_path(2, 2)), kPci + "/usb1"));
  CHECK(b.add(root_hub(1, UsbSpeed::High), kPci));
  CHECK(b.add(controller(), std::nullopt));
  CHECK_FALSE(b.add(controller(), std::nullopt));  // duplicate syspath

  std::vector<Diagnostic> diags;
  Topology t = std::move(b).finish(diags);
  CHECK(diags.empty());
  REQUIRE(t.controllers().size() == 1);
  const auto hubs = children(t, t.controllers()[0]);
  REQUIRE(hubs.size() == 2);
  CHECK(t[hubs[0]].as<UsbDeviceInfo>().name == "usb1");
  const auto ports = children(t, hubs[0]);
  REQUIRE(ports.size() == 2);
  CHECK(t[ports[0]].as<PortInfo>().name == "usb1-port2");  // natural order: 2 before 10
  CHECK(t[ports[1]].as<PortInfo>().name == "usb1-port10");

  REQUIRE(t.connectors().size() == 2);
  const auto& c = t.connectors()[0];
  CHECK(c.id == "usb1-port2");
  REQUIRE(c.usb2_port);
  REQUIRE(c.usb3_port);
  CHECK(t[*c.usb3_port].as<PortInfo>().name == "usb2-port2");
  CHECK(c.controller == t.controllers()[0]);
  CHECK(t.connectors()[1].id == "usb1-port10");
  CHECK_FALSE(t.connectors()[1].usb3_port);
  CHECK(t.find_by_name("usb2-port2") == c.usb3_port);
}

TEST_CASE("a node whose parent is missing becomes a root with a diagnostic") {
  TopologyBuilder b;
  CHECK(b.add(port(1, 1), kPci + "/usb1"));
  std::vector<Diagnostic> diags;
  Topology t = std::move(b).finish(diags);
  CHECK(t.roots().size() == 1);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].where == port_path(1, 1));
}

TEST_CASE("natural_less") {
  CHECK(natural_less("usb1-port2", "usb1-port10"));
  CHECK_FALSE(natural_less("usb1-port10", "usb1-port2"));
  CHECK(natural_less("1-2:1.0", "1-10:1.0"));
  CHECK(natural_less("sdb", "sdc"));
  CHECK_FALSE(natural_less("a", "a"));
}

// Golden tests of the topology views over the canonical in-memory machines (tests/support/machines.hpp).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "report/drives_view.hpp"
#include "report/json_topology.hpp"
#include "report/ports_view.hpp"
#include "report/tree.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat::report;
namespace tp = usbsat::topology;
using usbsat::testing::check_golden;

namespace {
struct Machine {
  const char* name;
  tp::Topology (*make)();
};
constexpr Machine kMachines[] = {
    {"workstation", &usbsat::testing::workstation},
    {"asm1042", [] { return usbsat::testing::asm1042_card(); }},
    {"legacy_ehci", &usbsat::testing::legacy_ehci},
};
}  // namespace

TEST_CASE("golden: topo, drives, ports (text and JSON) for every canonical machine") {
  for (const auto& m : kMachines) {
    CAPTURE(m.name);
    const std::vector<tp::Diagnostic> diags;
    const auto t = m.make();  // throws if the builder diagnosed anything
    const ViewInput in{t, diags};
    const std::string base = std::string("mem-") + m.name;
    check_golden(base + ".topo.txt", render_topology_text(in));
    check_golden(base + ".topo.json", render_topology_json(in));
    check_golden(base + ".drives.txt", render_drives_text(in));
    check_golden(base + ".drives.json", render_drives_json(in));
    check_golden(base + ".ports.txt", render_ports_text(in));
    check_golden(base + ".ports.json", render_ports_json(in));
    // Deterministic: the machine built anew renders to the same golden bytes.
    const auto again = m.make();
    check_golden(base + ".topo.txt", render_topology_text({again, diags}));
    check_golden(base + ".drives.json", render_drives_json({again, diags}));
  }
}

TEST_CASE("topo text: show_empty_ports lists every empty port") {
  const auto t = usbsat::testing::asm1042_card();
  std::vector<tp::Diagnostic> none;
  check_golden("mem-asm1042.topo-all.txt", render_topology_text({t, none, true}));
}

TEST_CASE("drives JSON follows the documented schema") {
  const auto t = usbsat::testing::workstation();
  const std::vector<tp::Diagnostic> diags{
      {tp::Severity::Error, "/sys/devices/x", "cannot read \"descriptors\""}};
  const auto j = nlohmann::json::parse(render_drives_json({t, diags}));
  REQUIRE(j["drives"].is_array());
  REQUIRE(j["drives"].size() == 6);
  const std::vector<std::string> keys{"dev",
                                      "devnode",
                                      "usb",
                                      "transport",
                                      "port_path",
                                      "connector",
                                      "hub_chain",
                                      "controller",
                                      "pcie_uplink",
                                      "speed_mbps",
                                      "capable_mbps",
                                      "protocol",
                                      "uas_capable",
                                      "queue_depth",
                                      "max_sectors_kb",
                                      "max_hw_sectors_kb",
                                      "vid_pid",
                                      "model",
                                      "size_bytes"};
  for (const auto& d : j["drives"])
    for (const auto& k : keys) CHECK_MESSAGE(d.contains(k), k);
  const auto& sdc = j["drives"][3];
  CHECK(sdc["dev"] == "sdc");
  CHECK(sdc["port_path"] == "2-1.1");
  CHECK(sdc["hub_chain"] == nlohmann::json::array({"2-1"}));
  CHECK(sdc["controller"]["pci"] == "0000:00:14.0");
  CHECK(sdc["controller"]["kind"] == "xhci");
  CHECK(sdc["controller"]["vendor_id"] == "8086");
  CHECK(sdc["speed_mbps"] == 5000);
  CHECK(sdc["protocol"] == "bot");
  CHECK(sdc["uas_capable"] == true);
  CHECK(sdc["vid_pid"] == "152d:0578");
  CHECK(sdc["pcie_uplink"] == nlohmann::json::array());
  const auto& nvme = j["drives"][0];
  CHECK(nvme["dev"] == "nvme0n1");
  CHECK(nvme["usb"] == false);
  for (const char* k : {"port_path", "connector", "hub_chain", "controller", "pcie_uplink", "speed_mbps",
                        "capable_mbps", "protocol", "uas_capable", "vid_pid"})
    CHECK_MESSAGE(nvme[k].is_null(), k);
  REQUIRE(j["diagnostics"].size() == 1);
  CHECK(j["diagnostics"][0]["severity"] == "error");
  CHECK(j["diagnostics"][0]["message"] == "cannot read \"descriptors\"");

  const auto card = usbsat::testing::asm1042_card();
  const auto c = nlohmann::json::parse(render_drives_json({card, {}}));
  CHECK(c["drives"][0]["pcie_uplink"] ==
        nlohmann::json::parse(
            R"([{"pci":"0000:00:1c.4","speed_gts":5.0,"width":1,"max_speed_gts":8.0,"max_width":1,
                                   "name":"Cannon Lake PCH PCI Express Root Port #5"}])"));
}

TEST_CASE("empty topology: the views say so instead of printing nothing") {
  tp::TopologyBuilder b;
  std::vector<tp::Diagnostic> d;
  const auto t = std::move(b).finish(d);
  CHECK(render_topology_text({t, d}) == "No devices found.\n");
  CHECK(render_drives_text({t, d}) == "No disks found.\n");
  CHECK(render_ports_text({t, d}) == "No USB host controllers found.\n");
  CHECK(render_drives_json({t, d}) == "{\n  \"drives\": [],\n  \"diagnostics\": []\n}\n");
}

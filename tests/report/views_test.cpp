// Golden tests of the topology views over the canonical in-memory machines (tests/support/machines.hpp).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "report/drives_view.hpp"
#include "report/json_topology.hpp"
#include "report/ports_view.hpp"
#include "report/table.hpp"
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

TEST_CASE("topo text: a hub whose maxchild was not read has \"ports unknown\", not the ports seen") {
  usbsat::testing::Machine m;
  const auto c = m.controller(std::nullopt, "0000:00:14.0", tp::HcdKind::Xhci);
  const auto rh = m.root_hub(c, 1, tp::UsbSpeed::High, 3);
  m.node(rh).as<tp::UsbDeviceInfo>().maxchild = std::nullopt;
  const auto t = m.finish();
  const std::vector<tp::Diagnostic> none;
  const auto text = render_topology_text({t, none});
  CHECK(text.find("usb1 root hub 480M, ports unknown (empty: 1 2 3)") != std::string::npos);
  CHECK(text.find("3 ports") == std::string::npos);
  CHECK(render_topology_json({t, none}).find("\"maxchild\": null") != std::string::npos);
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

namespace {
std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  for (auto e = s.find('\n'); e != std::string::npos; b = e + 1, e = s.find('\n', b))
    out.push_back(s.substr(b, e - b));
  return out;
}
}  // namespace

TEST_CASE("views on a terminal: drives colours UAS, topo and ports elide controller names to the width") {
  const auto t = usbsat::testing::asm1042_card();
  const std::vector<tp::Diagnostic> diags;
  const ViewInput plain{t, diags};
  ViewInput colour{t, diags};
  colour.style.color = true;
  const std::string d = render_drives_text(colour);
  CHECK(d.find("  \x1b[32mUAS\x1b[0m    30  ") != std::string::npos);  // aligned as the plain table
  std::string stripped = d;
  for (const std::string_view seq : {"\x1b[32m", "\x1b[0m"})
    for (auto pos = stripped.find(seq); pos != std::string::npos; pos = stripped.find(seq))
      stripped.erase(pos, seq.size());
  CHECK(stripped == render_drives_text(plain));

  ViewInput narrow{t, diags};
  narrow.style.width = 60;
  const auto wide_topo = lines_of(render_topology_text(plain));
  const auto narrow_topo = lines_of(render_topology_text(narrow));
  REQUIRE(narrow_topo.size() == wide_topo.size());
  std::size_t elided = 0;
  for (std::size_t i = 0; i < wide_topo.size(); ++i) {
    CAPTURE(wide_topo[i]);
    const bool heading =
        wide_topo[i].find("PCI ") == 0 || wide_topo[i].find(" controller 0000:") != std::string::npos;
    if (heading && display_width(wide_topo[i]) > 60) {
      CHECK(display_width(narrow_topo[i]) == 60);
      CHECK(narrow_topo[i].find("...") != std::string::npos);
      ++elided;
    } else {
      CHECK(narrow_topo[i] == wide_topo[i]);  // tree lines below the controllers keep every word
    }
  }
  CHECK(elided == 2);  // the root port line and the ASM1042 line
  CHECK(narrow_topo[1] == "└── xHCI controller 0000:03:00....(xhci_hcd), PCIe 5 GT/s x1");

  const auto ports = lines_of(render_ports_text(narrow));
  CHECK(ports[0] == "xHCI controller 0000:03:00.0 ...perSpeed USB Host Controller");
  // The OCCUPANT column gives way down to its 12-column floor; the other columns keep their text.
  CHECK(ports[6] == "  usb3-port1  usb3/usb4 port 1  USB3 5G  hotplug  -         4-1 0...D 5G  sda");
}

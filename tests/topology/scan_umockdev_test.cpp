// The real libudev path over fixture trees: runs under the umockdev preload (UMOCKDEV_DIR + LD_PRELOAD, set
// by CTest or by `umockdev-run -d`), exits 77 when that environment is missing.
//
//   USBSAT_EXPECTED=<scenario>.expected.json   compare the scan with the generator's declared truth
//   USBSAT_EXPECT=thinkpad                      the eudev ThinkPad tree: sdb on EHCI 0000:00:1d.7, 5-1, BOT,
//   480 (always)                                    the scan survives, and `lsusb -t` on the same tree agrees
//   with it
// The two cases that need a variable FAIL without it; CTest excludes them (-tce) from the registrations that
// do not set it, so none of them passes without checking anything.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "report/drives_view.hpp"
#include "report/tree.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/scan/scan.hpp"
#include "topology/scan/udev_source.hpp"

using namespace usbsat::topology;
using nlohmann::json;

namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

const ScanResult& result() {
  static const ScanResult r = [] {
    ScanConfig cfg;
    cfg.mountinfo_path = "";  // the host's mounts have nothing to do with the fixture's disks
    return scan_system(cfg);
  }();
  return r;
}
const Topology& topo() {
  return result().topology;
}

/// expected.json's PCI id: "1b21", or null for a SoC's platform controller (no PCI ids), which hex4 gives as
/// "".
std::string hex_or_empty(const json& j) {
  return j.is_null() ? "" : j.get<std::string>();
}

std::string hex4(std::optional<std::uint16_t> v) {
  if (!v) return "";
  char b[8];
  std::snprintf(b, sizeof b, "%04x", *v);
  return b;
}
std::string speed_str(std::optional<UsbSpeed> s) {
  return s ? std::string(to_sysfs_string(*s)) : "?";
}
int mbps(std::optional<UsbSpeed> s) {
  return s ? static_cast<int>(nominal_mbps(*s)) : -1;
}
const UsbDeviceInfo& usb(Vertex v) {
  return topo()[v].as<UsbDeviceInfo>();
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

TEST_CASE("the scan survives the fixture") {
  CHECK(topo().size() > 0);
  for (const auto& d : result().diagnostics) MESSAGE(d.where << ": " << d.message);
  // Every USB device the tree holds has a vertex, below a port (or a controller for root hubs).
  for (Vertex v : of_kind(topo(), NodeKind::Device)) {
    auto p = parent(topo(), v);
    REQUIRE(p);
    CHECK(topo()[*p].kind == NodeKind::Port);
  }
}

TEST_CASE("UdevSource's direct sysfs records equal libudev's (udev_enumerate + udev_device)") {
  UdevSource fast;
  for (const char* sub : {"usb", "block"}) {
    CAPTURE(sub);
    const auto mine = fast.enumerate(sub);
    const auto ref = enumerate_with_libudev(sub);
    REQUIRE(mine.size() == ref.size());
    for (std::size_t i = 0; i < mine.size(); ++i) {
      CAPTURE(ref[i].syspath);
      CHECK(mine[i].syspath == ref[i].syspath);
      CHECK(mine[i].sysname == ref[i].sysname);
      CHECK(mine[i].subsystem == ref[i].subsystem);
      CHECK(mine[i].devtype == ref[i].devtype);
      CHECK(mine[i].driver == ref[i].driver);
      if (!ref[i].devnode.empty()) CHECK(mine[i].devnode == ref[i].devnode);
      CHECK(mine[i].parent == ref[i].parent);
    }
  }
}

TEST_CASE("lsusb -t on the same tree agrees with the scan") {
  const std::string text = run("lsusb -t 2>/dev/null");
  std::size_t usb_devices = 0;
  for (NodeKind k : {NodeKind::RootHub, NodeKind::Hub, NodeKind::Device})
    usb_devices += of_kind(topo(), k).size();
  if (text.empty()) {
    CHECK_MESSAGE(usb_devices == 0,
                  "lsusb -t printed nothing, the scan has " << usb_devices << " USB devices");
    return;
  }
  std::set<std::pair<unsigned, unsigned>>
      lsusb_interfaces;  // (device vertex, interface number) lsusb printed
  const std::regex root_re(
      R"(^/:\s+Bus (\d+)\.Port \d+: Dev (\d+), Class=[^,]*, Driver=([^/,]*)(?:/(\d+)p)?, ([0-9.]+)M(?:/x(\d+))?$)");
  const std::regex dev_re(
      R"(^(\s*)\|__ Port (\d+): Dev (\d+), If (\d+), Class=[^,]*, Driver=([^/,]*)(?:/(\d+)p)?, ([0-9.]+)M(?:/x(\d+))?$)");
  std::set<unsigned> lsusb_buses;
  unsigned bus = 0;
  std::vector<std::pair<std::size_t, unsigned>> stack;  // (indent, device vertex) of the current chain
  int lines = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    CAPTURE(line);
    if (std::regex_match(line, m, root_re)) {
      ++lines;
      bus = static_cast<unsigned>(std::stoul(m[1]));
      lsusb_buses.insert(bus);
      stack.clear();
      auto rh = topo().find_by_name("usb" + std::to_string(bus));
      REQUIRE(rh);
      CHECK(usb(*rh).devnum == std::stoul(m[2]));
      CHECK(speed_str(usb(*rh).speed) == m[5].str());
      if (m[4].matched) CHECK(usb(*rh).maxchild == static_cast<unsigned>(std::stoul(m[4])));
      auto c = controller_of(topo(), *rh);
      REQUIRE(c);
      if (!m[3].str().empty()) CHECK(topo()[*c].as<ControllerInfo>().driver == m[3].str());
      continue;
    }
    if (!std::regex_match(line, m, dev_re)) {
      FAIL_CHECK("unparsed lsusb -t line");
      continue;
    }
    ++lines;
    // lsusb -t prints one line per interface; a hub whose interfaces are missing from a partial recording
    // is not printed, so the device is identified by (bus, devnum) and the indentation only has to agree
    // with ancestry: the nearest less-indented line is an ancestor.
    const std::size_t indent = m[1].length();
    while (!stack.empty() && stack.back().first >= indent) stack.pop_back();
    const unsigned devnum = static_cast<unsigned>(std::stoul(m[3]));
    std::optional<Vertex> dev;
    for (Vertex v : of_kind(topo(), NodeKind::Device))
      if (usb(v).busnum == bus && usb(v).devnum == devnum) dev = v;
    for (Vertex v : of_kind(topo(), NodeKind::Hub))
      if (usb(v).busnum == bus && usb(v).devnum == devnum) dev = v;
    REQUIRE(dev);
    CAPTURE(usb(*dev).name);
    REQUIRE_FALSE(usb(*dev).ports.empty());
    CHECK(usb(*dev).ports.back() == std::stoul(m[2]));
    if (!stack.empty()) {
      const auto anc = ancestors(topo(), *dev);
      CHECK(std::find(anc.begin(), anc.end(), static_cast<Vertex>(stack.back().second)) != anc.end());
    }
    stack.emplace_back(indent, static_cast<unsigned>(*dev));
    CHECK(usb(*dev).devnum == std::stoul(m[3]));
    CHECK(speed_str(usb(*dev).speed) == m[7].str());
    const unsigned lanes = m[8].matched ? static_cast<unsigned>(std::stoul(m[8])) : 1u;
    CHECK(usb(*dev).rx_lanes.value_or(1) == lanes);
    // The port the scan put the device under is the one lsusb names.
    auto port = parent(topo(), *dev);
    REQUIRE(port);
    CHECK(topo()[*port].as<PortInfo>().number == std::stoul(m[2]));
    // The interface lsusb prints, with its driver.
    const unsigned ifnum = static_cast<unsigned>(std::stoul(m[4]));
    bool found = false;
    for (Vertex k : children(topo(), *dev)) {
      const auto* i = topo()[k].get_if<InterfaceInfo>();
      if (!i || i->number != ifnum) continue;
      found = true;
      CHECK(i->driver == m[5].str());
    }
    CHECK(found);
    lsusb_interfaces.emplace(static_cast<unsigned>(*dev), ifnum);
    if (m[6].matched) CHECK(usb(*dev).maxchild == static_cast<unsigned>(std::stoul(m[6])));
  }
  CHECK(lines > 0);
  // The other direction: every root hub of the scan is a bus lsusb printed, and every interface of every hub
  // and device is a line of lsusb -t. lsusb -t prints the interfaces /sys/bus/usb/devices links, one line
  // each, so an interface a partial recording has only under /sys/devices (and a device without interfaces)
  // cannot appear there: those are counted, not checked.
  for (Vertex v : of_kind(topo(), NodeKind::RootHub)) CHECK(lsusb_buses.contains(usb(v).busnum));
  std::size_t unlisted = 0;
  for (NodeKind k : {NodeKind::Hub, NodeKind::Device})
    for (Vertex v : of_kind(topo(), k)) {
      bool any = false;
      for (Vertex c : children(topo(), v))
        if (const auto* i = topo()[c].get_if<InterfaceInfo>()) {
          if (::access(("/sys/bus/usb/devices/" + i->name).c_str(), F_OK) != 0) {
            ++unlisted;
            continue;
          }
          any = true;
          CHECK_MESSAGE(
              lsusb_interfaces.contains({static_cast<unsigned>(v), i->number}),
              "the scan shows " << usb(v).name << " interface " << i->number << ", lsusb -t does not");
        }
      unlisted += !any;
    }
  if (unlisted)
    MESSAGE(unlisted << " USB devices/interfaces are not linked in /sys/bus/usb/devices: not in lsusb -t");
}

TEST_CASE("the eudev ThinkPad tree: sdb on the EHCI at 0000:00:1d.7, port 5-1, usb-storage, 480") {
  REQUIRE_MESSAGE((env("USBSAT_EXPECT") && std::string(env("USBSAT_EXPECT")) == "thinkpad"),
                  "needs USBSAT_EXPECT=thinkpad (the tree this case knows); exclude the case elsewhere");
  auto sdb = topo().find_by_name("sdb");
  REQUIRE(sdb);
  const auto& b = topo()[*sdb].as<BlockInfo>();
  CHECK(b.usb);
  CHECK(b.transport == "usb");
  auto dev = usb_device_of(topo(), *sdb);
  REQUIRE(dev);
  CHECK(usb(*dev).name == "5-1");
  CHECK(usb(*dev).speed == UsbSpeed::High);
  CHECK(hex4(usb(*dev).vendor_id) == "1043");
  auto c = controller_of(topo(), *sdb);
  REQUIRE(c);
  const auto& ci = topo()[*c].as<ControllerInfo>();
  CHECK(ci.bdf == "0000:00:1d.7");
  CHECK(ci.kind == HcdKind::Ehci);
  CHECK(ci.companions ==
        std::vector<std::string>{"0000:00:1d.0", "0000:00:1d.1", "0000:00:1d.2", "0000:00:1d.3"});
  auto scsi = parent(topo(), *sdb);
  REQUIRE(scsi);
  auto intf = parent(topo(), *scsi);
  REQUIRE(intf);
  CHECK(topo()[*intf].as<InterfaceInfo>().driver == "usb-storage");
  CHECK(topo()[*intf].as<InterfaceInfo>().storage == StorageProtocol::Bot);
  auto sda = topo().find_by_name("sda");
  REQUIRE(sda);
  CHECK_FALSE(topo()[*sda].as<BlockInfo>().usb);
  CHECK(topo()[*sda].as<BlockInfo>().transport == "sata");
  CHECK_FALSE(topo().find_by_name("loop0"));
}

/// The generator's <scenario>.expected.json named by USBSAT_EXPECTED.
json declared_truth() {
  const char* path = env("USBSAT_EXPECTED");
  REQUIRE_MESSAGE(path, "needs USBSAT_EXPECTED=<scenario>.expected.json; exclude the case elsewhere");
  std::ifstream f(path);
  REQUIRE(f);
  return json::parse(f);
}

TEST_CASE("the scan matches the generator's declared truth") {
  const json truth = declared_truth();
  const Topology& t = topo();

  for (const auto& d : truth.at("drives")) {
    const std::string dev = d.at("dev");
    CAPTURE(dev);
    auto v = t.find_by_name(dev);
    REQUIRE(v);
    const auto& b = t[*v].as<BlockInfo>();
    CHECK(b.usb == d.at("usb").get<bool>());
    CHECK(b.transport == d.at("transport").get<std::string>());
    CHECK(opt(b.hctl) == d.at("hctl"));
    CHECK(opt(b.queue_depth) == d.at("queue_depth"));
    CHECK(opt(b.max_sectors_kb) == d.at("max_sectors_kb"));
    CHECK(opt(b.max_hw_sectors_kb) == d.at("max_hw_sectors_kb"));
    if (!b.usb) {
      CHECK_FALSE(usb_device_of(t, *v));
      CHECK_FALSE(controller_of(t, *v));
      continue;
    }
    auto udev = usb_device_of(t, *v);
    REQUIRE(udev);
    const auto& u = usb(*udev);
    CHECK(u.name == d.at("port_path").get<std::string>());
    json chain = json::array();
    for (Vertex h : hub_chain(t, *udev)) chain.push_back(usb(h).name);
    CHECK(chain == d.at("hub_chain"));
    auto c = controller_of(t, *udev);
    REQUIRE(c);
    const auto& ci = t[*c].as<ControllerInfo>();
    const auto& dc = d.at("controller");
    CHECK(ci.bdf == dc.at("pci").get<std::string>());
    CHECK(std::string(to_string(ci.kind)) == dc.at("kind").get<std::string>());
    CHECK(hex4(ci.vendor_id) == hex_or_empty(dc.at("vendor_id")));
    CHECK(hex4(ci.device_id) == hex_or_empty(dc.at("device_id")));
    json up = json::array();
    for (Vertex h : pcie_uplink(t, *c)) {
      const auto& hop = t[h].as<PciHopInfo>();
      up.push_back({{"pci", hop.bdf},
                    {"speed_gts", opt(hop.link.speed_gts)},
                    {"width", opt(hop.link.width)},
                    {"max_speed_gts", opt(hop.link.max_speed_gts)},
                    {"max_width", opt(hop.link.max_width)}});
    }
    CHECK(up == d.at("pcie_uplink"));
    CHECK(mbps(u.speed) == d.at("speed_mbps").get<int>());
    CHECK(mbps(u.capable_speed) == d.at("capable_mbps").get<int>());
    CHECK(opt(u.power_control) == d.at("power_control"));
    CHECK(hex4(u.vendor_id) + ":" + hex4(u.product_id) == d.at("vid_pid").get<std::string>());
    auto scsi = parent(t, *v);
    REQUIRE(scsi);
    auto intf = parent(t, *scsi);
    REQUIRE(intf);
    const auto& i = t[*intf].as<InterfaceInfo>();
    CHECK(std::string(to_string(i.storage)) == d.at("protocol").get<std::string>());
    CHECK(i.uas_capable == d.at("uas_capable").get<bool>());
    const bool forced = i.uas_blocked_reason && i.uas_blocked_reason->find("IGNORE_UAS") != std::string::npos;
    CHECK(forced == d.at("quirk_forced_bot").get<bool>());
  }
  // Exactly the declared drives: nothing extra, nothing mis-attributed.
  CHECK(block_devices(t).size() == truth.at("drives").size());

  for (const auto& c : truth.at("controllers")) {
    const std::string bdf = c.at("pci");
    CAPTURE(bdf);
    std::optional<Vertex> cv;
    for (Vertex v : t.controllers())
      if (t[v].as<ControllerInfo>().bdf == bdf) cv = v;
    REQUIRE(cv);
    const auto& ci = t[*cv].as<ControllerInfo>();
    CHECK(std::string(to_string(ci.kind)) == c.at("kind").get<std::string>());
    CHECK(hex4(ci.vendor_id) == hex_or_empty(c.at("vendor_id")));
    CHECK(hex4(ci.device_id) == hex_or_empty(c.at("device_id")));
    if (c.at("link").is_null()) {
      CHECK(ci.link.empty());
    } else {
      CHECK(opt(ci.link.speed_gts) == c.at("link").at("speed_gts"));
      CHECK(opt(ci.link.width) == c.at("link").at("width"));
    }
    if (!c.at("companion_of").is_null()) {
      const auto& comp = c.at("companion_of");
      const std::string ehci = comp.is_array() ? comp.at(0).get<std::string>() : comp.get<std::string>();
      CHECK(std::find(ci.companions.begin(), ci.companions.end(), ehci) != ci.companions.end());
    }
    std::vector<Vertex> hubs;
    for (Vertex k : children(t, *cv))
      if (t[k].kind == NodeKind::RootHub) hubs.push_back(k);
    REQUIRE(hubs.size() == c.at("root_hubs").size());
    for (std::size_t i = 0; i < hubs.size(); ++i) {
      const auto& rh = c.at("root_hubs")[i];
      CHECK(usb(hubs[i]).name == rh.at("name").get<std::string>());
      CHECK(usb(hubs[i]).busnum == rh.at("bus").get<unsigned>());
      CHECK(mbps(usb(hubs[i]).speed) == rh.at("speed_mbps").get<int>());
      CHECK(usb(hubs[i]).maxchild == rh.at("ports").get<unsigned>());
    }
    // Connectors of this controller's root hubs.
    std::vector<const Connector*> mine;
    for (const auto& k : t.connectors())
      if (k.controller == *cv && t[k.hub].kind == NodeKind::RootHub) mine.push_back(&k);
    REQUIRE(mine.size() == c.at("connectors").size());
    for (const auto& exp : c.at("connectors")) {
      const std::string id =
          exp.at("usb2").is_null() ? exp.at("usb3").get<std::string>() : exp.at("usb2").get<std::string>();
      CAPTURE(id);
      const Connector* k = nullptr;
      for (const auto* m : mine)
        if (m->id == id) k = m;
      REQUIRE(k);
      auto name_of = [&](std::optional<Vertex> p) {
        return p ? json(t[*p].as<PortInfo>().name) : json(nullptr);
      };
      CHECK(name_of(k->usb2_port) == exp.at("usb2"));
      CHECK(name_of(k->usb3_port) == exp.at("usb3"));
      const auto& main_port = t[k->usb2_port ? *k->usb2_port : *k->usb3_port].as<PortInfo>();
      CHECK(opt(main_port.connect_type) == exp.at("connect_type"));
      json devices = json::array();
      for (auto side : {k->usb2_port, k->usb3_port})
        if (side)
          for (Vertex d : children(t, *side)) devices.push_back(usb(d).name);
      std::vector<std::string> got = devices.get<std::vector<std::string>>(), want = exp.at("devices");
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      CHECK(got == want);
      CHECK(occupant(t, *k).has_value() == exp.at("occupied").get<bool>());
      const auto& pl = exp.at("physical_location");
      if (pl.is_null()) {
        CHECK_FALSE(main_port.physical_location);
      } else {
        REQUIRE(main_port.physical_location);
        CHECK(opt(main_port.physical_location->panel) == pl.at("panel"));
        CHECK(opt(main_port.physical_location->vertical_position) == pl.at("vertical_position"));
        CHECK(opt(main_port.physical_location->horizontal_position) == pl.at("horizontal_position"));
        CHECK(main_port.physical_location->dock == (pl.at("dock") == "yes"));
        CHECK(main_port.physical_location->lid == (pl.at("lid") == "yes"));
      }
      unsigned oc = 0;
      for (auto side : {k->usb2_port, k->usb3_port})
        if (side) oc = std::max(oc, t[*side].as<PortInfo>().over_current_count.value_or(0));
      CHECK(oc == exp.at("over_current_count").get<unsigned>());
    }
  }

  for (const auto& d : truth.at("usb_devices")) {
    const std::string name = d.at("name");
    CAPTURE(name);
    auto v = t.find_by_name(name);
    REQUIRE(v);
    const auto& u = usb(*v);
    CHECK(u.busnum == d.at("busnum").get<unsigned>());
    CHECK(u.devnum == d.at("devnum").get<unsigned>());
    CHECK(hex4(u.vendor_id) + ":" + hex4(u.product_id) == d.at("vid_pid").get<std::string>());
    CHECK(speed_str(u.speed) == d.at("speed").get<std::string>());
    CHECK(u.rx_lanes.value_or(1) == d.at("lanes").get<unsigned>());
    CHECK(u.maxchild.value_or(0) == d.at("ports").get<unsigned>());
    auto up = parent(t, *v);
    REQUIRE(up);
    if (d.at("port").is_null()) {
      CHECK(t[*up].kind == NodeKind::Controller);
      if (d.contains("driver_hcd"))
        CHECK(t[*up].as<ControllerInfo>().driver == d.at("driver_hcd").get<std::string>());
    } else {
      CHECK(t[*up].as<PortInfo>().name == d.at("port").get<std::string>());
      auto hub = parent(t, *up);
      REQUIRE(hub);
      CHECK(usb(*hub).name == d.at("parent").get<std::string>());
    }
    if (!d.contains("interfaces")) continue;
    std::vector<const InterfaceInfo*> ifs;
    for (Vertex k : children(t, *v))
      if (const auto* i = t[k].get_if<InterfaceInfo>()) ifs.push_back(i);
    REQUIRE(ifs.size() == d.at("interfaces").size());
    for (const auto& ei : d.at("interfaces")) {
      const InterfaceInfo* i = nullptr;
      for (const auto* x : ifs)
        if (x->number == ei.at("number").get<unsigned>()) i = x;
      REQUIRE(i);
      char cls[4];
      std::snprintf(cls, sizeof cls, "%02x", i->interface_class.value_or(0xff));
      CHECK(std::string(cls) == ei.at("class").get<std::string>());
      json alts = json::array();
      for (const auto& a : i->alt_settings) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%02x/%02x/%02x", a.interface_class, a.interface_subclass,
                      a.interface_protocol);
        alts.push_back(buf);
      }
      CHECK(alts == ei.at("alts"));
      CHECK(i->alt_setting.value_or(0) == ei.at("active_alt").get<unsigned>());
      CHECK(json(i->driver.empty() ? json(nullptr) : json(i->driver)) == ei.at("driver"));
    }
  }
}

namespace {

/// A DeviceSource that forwards to UdevSource and counts every read by what it reads: which call, which
/// directory, which name.
class CountingSource final : public DeviceSource {
 public:
  std::map<std::string, int> reads;

  std::vector<RawDevice> enumerate(std::string_view s) override {
    count("enumerate", s, "");
    return src_.enumerate(s);
  }
  std::optional<RawDevice> device(std::string_view p) override {
    count("device", p, "");
    return src_.device(p);
  }
  std::optional<std::string> attribute(std::string_view p, std::string_view n) override {
    count("attribute", p, n);
    return src_.attribute(p, n);
  }
  std::optional<std::string> binary_attribute(std::string_view p, std::string_view n) override {
    count("binary_attribute", p, n);
    return src_.binary_attribute(p, n);
  }
  std::optional<std::string> link_target(std::string_view p, std::string_view n) override {
    count("link_target", p, n);
    return src_.link_target(p, n);
  }
  std::vector<std::string> list(std::string_view p, std::string_view n) override {
    count("list", p, n);
    return src_.list(p, n);
  }
  std::vector<HwdbEntry> hwdb(std::string_view key) override { return src_.hwdb(key); }
  std::optional<std::string> read_text_file(std::string_view p) override {
    count("read_text_file", p, "");
    return src_.read_text_file(p);
  }
  std::vector<Diagnostic> take_read_problems() override { return src_.take_read_problems(); }

 private:
  void count(std::string_view what, std::string_view dir, std::string_view name) {
    ++reads[std::string(what) + " " + std::string(dir) + (name.empty() ? "" : "/" + std::string(name))];
  }
  UdevSource src_;
};

const char* detail_name(ScanDetail d) {
  switch (d) {
    case ScanDetail::Full:
      return "Full";
    case ScanDetail::Drives:
      return "Drives";
    case ScanDetail::Tree:
      return "Tree";
  }
  return "?";
}

/// The first line where `a` and `b` differ (of `a` or of `b`), so a failure names the attribute a lower
/// detail must still read.
std::pair<std::string, std::string> first_difference(const std::string& a, const std::string& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const auto line_at = [&](const std::string& s) {
    const auto before = at == 0 ? std::string::npos : s.rfind('\n', at - 1);
    const auto from = before == std::string::npos ? 0 : before + 1;
    const auto end = s.find('\n', from);
    return s.substr(from, end == std::string::npos ? std::string::npos : end - from);
  };
  return {line_at(a), line_at(b)};
}

ScanResult scan_at(ScanDetail detail) {
  ScanConfig cfg;
  cfg.mountinfo_path = "";
  cfg.detail = detail;
  return scan_system(cfg);
}

}  // namespace

TEST_CASE("the scan matches the generator's declared truth: USB4 links and their USB3 tunnels") {
  const json truth = declared_truth();
  const Topology& t = topo();
  const auto links = usb4_links(t);
  // A scenario without a thunderbolt bus declares none, and the scan must show none.
  const json declared = truth.value("usb4_links", json::array());
  REQUIRE(links.size() == declared.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto& l = links[i];
    const auto& d = declared[i];
    CAPTURE(l.name);
    CHECK(l.name == d.at("router").get<std::string>());
    CHECK(l.lane_gbps == d.at("lane_gbps").get<unsigned>());
    CHECK(l.lanes == d.at("lanes").get<unsigned>());
    CHECK(l.below_capability() == d.at("below_capability").get<bool>());
    REQUIRE(l.usable);
    CHECK(l.usable->bytes_per_s * 8 == static_cast<std::uint64_t>(d.at("usable_gbps").get<double>() * 1e9));
    // A Thunderbolt 3 router has no USB3 tunnel (its USB rides its PCIe tunnel): declared without one.
    REQUIRE(l.usb3_tunnel.has_value() == d.contains("usb3_tunnel_gbps"));
    // Reads (dock -> host) and writes (host -> dock, beside the DisplayPort streams), to the generator's 4
    // places.
    auto gbit = [](const std::optional<Bandwidth>& b) {
      return b ? static_cast<double>(b->bytes_per_s) * 8 / 1e9 : -1;
    };
    if (l.usb3_tunnel) {
      CHECK(gbit(l.usb3_tunnel) == doctest::Approx(d.at("usb3_tunnel_gbps").get<double>()).epsilon(1e-4));
      CHECK(gbit(l.usb3_tunnel_write) ==
            doctest::Approx(d.at("usb3_tunnel_write_gbps").get<double>()).epsilon(1e-4));
    }
    json ports = json::array();
    for (Vertex p : l.usb_ports) ports.push_back(node_id(t, p));
    CHECK(ports == d.at("usb_ports"));
    json drives = json::array();
    for (Vertex b : block_devices(t))
      if (const auto via = usb4_link_of(t, b); via && via->router == l.router)
        drives.push_back(t[b].as<BlockInfo>().name);
    CHECK(drives == d.at("drives"));
    // DisplayPort tunnels: the connected DRM connectors on the link's Type-C connector (absent: none seen).
    json displays = json::array();
    for (const auto& c : l.display_connectors) displays.push_back(c.name);
    CHECK(displays == d.value("displayport_tunnels", json::array()));
    CHECK(gbit(l.displays) == doctest::Approx(d.value("displays_gbps", 0.0)).epsilon(1e-4));
    json path = json::array();
    for (const auto& h : l.path) path.push_back(h.router);
    CHECK(path == d.at("path"));
  }
}

TEST_CASE("the scan matches the generator's declared truth: Thunderbolt PCIe tunnels") {
  const json truth = declared_truth();
  const Topology& t = topo();
  const auto tunnels = pcie_tunnels(t);
  const json declared = truth.value("pcie_tunnels", json::array());
  REQUIRE(tunnels.size() == declared.size());
  for (std::size_t i = 0; i < tunnels.size(); ++i) {
    const auto& p = tunnels[i];
    const auto& d = declared[i];
    CAPTURE(p.name);
    CHECK(p.name == d.at("router").get<std::string>());
    CHECK(node_id(t, p.entry) == d.at("entry").get<std::string>());
    json controllers = json::array();
    for (Vertex c : p.controllers) controllers.push_back(node_id(t, c));
    CHECK(controllers == d.at("controllers"));
    REQUIRE(p.link_share);
    CHECK(p.link_share->mbs() == doctest::Approx(d.at("link_share_mbs").get<double>()).epsilon(1e-6));
    REQUIRE(p.capacity);
    CHECK(p.capacity->mbs() == doctest::Approx(d.at("capacity_mbs").get<double>()).epsilon(1e-6));
    CHECK(p.marked_removable == d.at("removable").get<bool>());
    // Every drive below the tunnel's controllers has the tunnel on its path, at the tunnel's capacity.
    json drives = json::array();
    for (Vertex b : block_devices(t))
      for (const auto& r : path_resources(t, b))
        if (r.kind == ResourceKind::PcieTunnel && r.node == p.name) {
          drives.push_back(t[b].as<BlockInfo>().name);
          CHECK(r.capacity == p.capacity);
        }
    CHECK(drives == d.at("drives"));
  }
}

TEST_CASE("no sysfs file or directory is read twice in one scan, at any detail") {
  for (const auto detail : {ScanDetail::Full, ScanDetail::Drives, ScanDetail::Tree}) {
    CountingSource src;
    ScanConfig cfg;
    cfg.mountinfo_path = "";
    cfg.detail = detail;
    const auto r = scan(src, cfg);
    CHECK(r.topology.size() > 0);
    CHECK(!src.reads.empty());
    for (const auto& read :
         src.reads) {  // not a structured binding: clang 14 cannot capture one in INFO's lambda
      INFO(detail_name(detail) << ": " << read.first);
      CHECK(read.second == 1);
    }
  }
}

TEST_CASE("the Tree scan prints the same topo and drives text as the Full scan") {
  const auto full = scan_at(ScanDetail::Full);
  const auto tree = scan_at(ScanDetail::Tree);
  REQUIRE(full.topology.size() > 0);
  struct TextView {
    const char* command;
    std::string (*render)(const usbsat::report::ViewInput&);
  };
  for (const TextView view : {TextView{"topo", &usbsat::report::render_topology_text},
                              TextView{"drives", &usbsat::report::render_drives_text}}) {
    for (const bool all : {false, true}) {
      const auto a = view.render({full.topology, full.diagnostics, all});
      const auto b = view.render({tree.topology, tree.diagnostics, all});
      const auto diff = first_difference(a, b);  // not a structured binding: clang 14 cannot capture one
      INFO(view.command << (all ? " --all" : "") << ": Full prints '" << diff.first << "', Tree '"
                        << diff.second << "'");
      CHECK(a == b);
    }
  }
}

TEST_CASE("the Drives scan prints the same drives --json as the Full scan") {
  const auto full = scan_at(ScanDetail::Full);
  const auto drives = scan_at(ScanDetail::Drives);
  REQUIRE(full.topology.size() > 0);
  // The whole document, diagnostics included: an attribute the Drives detail skips must not have been the
  // subject of a diagnostic either.
  const auto a = usbsat::report::render_drives_json({full.topology, full.diagnostics});
  const auto b = usbsat::report::render_drives_json({drives.topology, drives.diagnostics});
  const auto diff = first_difference(a, b);
  INFO("drives --json: Full prints '" << diff.first << "', Drives '" << diff.second << "'");
  CHECK(a == b);
  // The text table too: the Drives detail reads all that the Tree detail does.
  CHECK(usbsat::report::render_drives_text({full.topology, full.diagnostics}) ==
        usbsat::report::render_drives_text({drives.topology, drives.diagnostics}));
}

int main(int argc, char** argv) {
  const char* preload = env("LD_PRELOAD");
  if (!env("UMOCKDEV_DIR") || !preload || std::string(preload).find("umockdev") == std::string::npos) {
    std::printf("SKIP: needs UMOCKDEV_DIR and the umockdev preload (run via CTest or umockdev-run)\n");
    return 77;
  }
  doctest::Context ctx(argc, argv);
  return ctx.run();
}

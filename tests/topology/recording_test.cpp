// Recordings: the envelope parser (table-driven), serial pseudonyms, base64, and record -> JSON -> replay
// over an in-memory FakeSource giving the same scan.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/fake_source.hpp"
#include "topology/model/drives.hpp"
#include "topology/recording/capture_reader.hpp"
#include "topology/recording/linux_capture.hpp"
#include "topology/recording/recording.hpp"
#include "topology/recording/recording_source.hpp"
#include "topology/recording/replay_source.hpp"
#include "topology/recording/serials.hpp"
#include "topology/windows/snapshot_json.hpp"

using namespace usbsat::topology;
using namespace usbsat::topology::recording;
using usbsat::testing::FakeSource;

namespace {

const std::string kXhci = "/sys/devices/pci0000:00/0000:00:14.0";
const std::string kEnc = kXhci + "/usb2/2-1";
const std::string kLun = kEnc + "/2-1:1.0/host6/target6:0:0/6:0:0:0";

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s += static_cast<char>(v);
  return s;
}

/// A USB3 enclosure on an Intel xHCI: serial, descriptors, a product name that is not UTF-8, an unreadable
/// attribute, hwdb names, mountinfo, the usb-storage quirks parameter.
FakeSource machine() {
  FakeSource f;
  f.device({.syspath = kXhci, .subsystem = "pci", .driver = "xhci_hcd"},
           {{"vendor", "0x8086"}, {"device", "0xa12f"}, {"class", "0x0c0330"}});
  f.hwdb_entry("pci:v00008086d0000A12F", "ID_VENDOR_FROM_DATABASE", "Intel Corporation");
  f.device({.syspath = kXhci + "/usb2", .subsystem = "usb", .devtype = "usb_device", .driver = "usb"},
           {{"busnum", "2"},
            {"devnum", "1"},
            {"speed", "5000"},
            {"version", " 3.00"},
            {"maxchild", "2"},
            {"bDeviceClass", "09"},
            {"idVendor", "1d6b"},
            {"idProduct", "0003"}});
  f.device({.syspath = kEnc,
            .subsystem = "usb",
            .devtype = "usb_device",
            .driver = "usb",
            .properties = {{"ID_SERIAL", "ASMT_2115_ENC12345"},
                           {"ID_SERIAL_SHORT", "ENC12345"},
                           {"DEVLINKS", "/dev/disk/by-id/usb-ASMT_2115_ENC12345-0:0"}}},
           {{"busnum", "2"},
            {"devnum", "2"},
            {"version", " 3.10"},
            {"idVendor", "174c"},
            {"idProduct", "55aa"},
            {"bDeviceClass", "00"},
            {"serial", "ENC12345"},
            {"product", "Bad \xff\xfe name"}});
  f.binary(kEnc, "descriptors",
           bytes({18, 1, 0x10, 3, 0, 0, 0, 9,    0x4c, 0x17, 0xaa, 0x55, 0, 1, 1, 2, 3,    1,
                  9,  2, 18,   0, 1, 1, 0, 0x80, 112,  9,    4,    0,    0, 2, 8, 6, 0x50, 0}));
  f.unreadable(kEnc, "speed");
  f.device(
      {.syspath = kEnc + "/2-1:1.0", .subsystem = "usb", .devtype = "usb_interface", .driver = "usb-storage"},
      {{"bInterfaceNumber", "00"},
       {"bInterfaceClass", "08"},
       {"bInterfaceSubClass", "06"},
       {"bInterfaceProtocol", "50"}});
  f.device({.syspath = kLun, .subsystem = "scsi", .devtype = "scsi_device", .driver = "sd"},
           {{"vendor", "ASMT"}, {"model", "2115"}, {"queue_depth", "1"}, {"type", "0"}});
  f.device({.syspath = kLun + "/block/sdb", .subsystem = "block", .devtype = "disk", .devnode = "/dev/sdb"},
           {{"dev", "8:16"}, {"size", "1000"}});
  f.dir("/sys/module/usb_storage/parameters", {{"quirks", "174c:55aa:u"}});
  f.text_file("/mi", "40 22 8:16 / /media/ENC12345 rw - ext4 /dev/sdb rw\n");
  return f;
}

const ScanConfig kConfig{.mountinfo_path = "/mi"};

std::string record(FakeSource& f, bool keep_serials) {
  Envelope meta;
  meta.recorded_at = "2024-05-01T12:00:00Z";
  meta.usbsat_version = "test";
  meta.host = "h";
  return record_linux(f, kConfig, meta, keep_serials).document;
}

const UsbDeviceInfo& enclosure(const Topology& t) {
  return t.graph()[*t.find(kEnc)].as<UsbDeviceInfo>();
}

std::vector<std::string> syspaths(const Topology& t) {
  std::vector<std::string> out;
  for (std::size_t v = 0; v < t.size(); ++v) out.push_back(t.graph()[v].syspath());
  return out;
}

/// A minimal valid recording with `envelope` fields replaced (null: removed).
std::string doc_with(const nlohmann::json& changes) {
  nlohmann::json d = {{"format", "usbsat-recording"},
                      {"version", 1},
                      {"platform", "linux"},
                      {"recorded_at", "2024-05-01T12:00:00Z"},
                      {"usbsat_version", "0.1.0"},
                      {"host", "h"},
                      {"data", nlohmann::json::object()}};
  for (const auto& [k, v] : changes.items()) {
    if (v.is_null())
      d.erase(k);
    else
      d[k] = v;
  }
  return d.dump();
}

}  // namespace

TEST_CASE("recording: record then replay gives the same scan, absent answers and read problems included") {
  FakeSource live = machine();
  const ScanResult direct = scan(live, kConfig);
  FakeSource again = machine();
  const std::string text = record(again, true);
  const ScanResult replayed = load_recording_text(text, kConfig);
  CHECK(syspaths(replayed.topology) == syspaths(direct.topology));
  CHECK(replayed.diagnostics == direct.diagnostics);
  CHECK(!direct.diagnostics.empty());  // the unreadable speed: a read problem, replayed at the same call
  CHECK(enclosure(replayed.topology).serial == enclosure(direct.topology).serial);
  CHECK(enclosure(replayed.topology).product == enclosure(direct.topology).product);
  CHECK(enclosure(replayed.topology).capable_speed == enclosure(direct.topology).capable_speed);
  CHECK(replayed.host.usb_storage_quirks == direct.host.usb_storage_quirks);
  CHECK(replayed.host.usb_storage_quirks == "174c:55aa:u");
  // The product name that is not UTF-8 travels raw, as base64, and the scan of the replay passes it through
  // the same sanitiser as the live scan (topology/scan/safe_source.hpp).
  CHECK(*enclosure(replayed.topology).product == "Bad \\xff\\xfe name");
  CHECK(text.find("\"base64\"") != std::string::npos);
}

TEST_CASE("recording: serials become pseudonyms everywhere unless kept") {
  FakeSource f = machine();
  const std::string hidden = record(f, false);
  CHECK(hidden.find("ENC12345") == std::string::npos);  // serial attribute, ID_SERIAL*, DEVLINKS, mountinfo
  CHECK(hidden.find(pseudonym("ENC12345")) != std::string::npos);
  const ScanResult r = load_recording_text(hidden, kConfig);
  CHECK(enclosure(r.topology).serial == pseudonym("ENC12345"));
  FakeSource g = machine();
  const std::string kept = record(g, true);
  CHECK(kept.find("\"ENC12345\"") != std::string::npos);
}

TEST_CASE("recording: a Windows snapshot records with serials hidden and replays to the same drives") {
  for (const char* name : {"intel-xhci-desktop", "asm1042-card", "win7-ehci"}) {
    CAPTURE(name);
    std::ifstream in(std::string(USBSAT_SOURCE_DIR) + "/tests/fixtures/windows/" + name + ".json");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<Diagnostic> diags;
    const auto snap = windows::snapshot_from_json(nlohmann::json::parse(ss.str()).at("data"), diags);
    REQUIRE(diags.empty());
    // Every serial of the snapshot: the USB devices' string descriptors and the disks'.
    std::vector<std::string> serials;
    for (const auto& d : snap.disks)
      if (d.serial) serials.push_back(*d.serial);
    REQUIRE_FALSE(serials.empty());
    Envelope meta;
    meta.recorded_at = "2026-12-02T00:00:00Z";
    meta.usbsat_version = "0.1.0";
    meta.host = pseudonym("host");
    const auto rec = record_windows(snap, meta, false);
    for (const auto& s : serials) {
      CAPTURE(s);
      std::string lower = s;
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      CHECK(rec.document.find(s) == std::string::npos);      // as the value, in instance IDs and ancestors
      CHECK(rec.document.find(lower) == std::string::npos);  // in symbolic links
    }
    // Replayed: the same drives, tied to the same USB devices; only the serials are their pseudonyms.
    const auto live = summarize_drives(rec.scan.topology);
    const auto replayed = summarize_drives(load_recording_text(rec.document).topology);
    REQUIRE(live.size() == replayed.size());
    for (std::size_t i = 0; i < live.size(); ++i) {
      CAPTURE(live[i].dev);
      CHECK(replayed[i].dev == live[i].dev);
      CHECK(replayed[i].usb == live[i].usb);
      CHECK(replayed[i].port_path == live[i].port_path);
      CHECK(replayed[i].protocol == live[i].protocol);
      CHECK(replayed[i].speed == live[i].speed);
      CHECK(replayed[i].vid_pid == live[i].vid_pid);
      CHECK(replayed[i].size_bytes == live[i].size_bytes);
      CHECK(replayed[i].serial ==
            (live[i].serial ? std::optional(pseudonym(*live[i].serial)) : std::nullopt));
    }
    // --keep-serials: the snapshot as collected.
    const auto kept = record_windows(snap, meta, true);
    for (const auto& s : serials) CHECK(kept.document.find(s) != std::string::npos);
  }
}

TEST_CASE(
    "recording: a Windows serial is hidden in instance IDs and symbolic links whatever their letter case") {
  // Windows upper-cases a USB serial in the instance ID and lower-cases it in the hub's symbolic link.
  windows::UsbDevice hub_dev;
  hub_dev.instance_id = "USB\\VID_05E3&PID_0626\\ABCD1234";
  hub_dev.serial = "AbCd1234";
  hub_dev.hub = windows::UsbHub{};
  hub_dev.hub->symbolic_link = "USB#VID_05E3&PID_0626#abcd1234#{f18a0e88-c30c-11d0-8815-00a0c906bed8}";
  windows::UsbPort in_root, companion;
  in_root.device.push_back(hub_dev);
  companion.companion_hub = hub_dev.hub->symbolic_link;
  windows::HostController c;
  c.root_hub = windows::UsbHub{};
  c.root_hub->ports = {in_root, companion};
  windows::WindowsSnapshot snap;
  snap.controllers.push_back(c);
  windows::Disk disk;
  disk.instance_id = "USBSTOR\\DISK&VEN_X&PROD_Y\\ABCD1234&0";
  disk.ancestors = {"USB\\VID_05E3&PID_0626\\AbCd1234"};
  snap.disks.push_back(disk);

  hide_serials(snap);
  const std::string p = pseudonym("AbCd1234");
  const auto& dev = snap.controllers[0].root_hub->ports[0].device[0];
  CHECK(dev.serial == p);
  CHECK(dev.instance_id == "USB\\VID_05E3&PID_0626\\" + p);
  CHECK(*dev.hub->symbolic_link == "USB#VID_05E3&PID_0626#" + p + "#{f18a0e88-c30c-11d0-8815-00a0c906bed8}");
  CHECK(*snap.controllers[0].root_hub->ports[1].companion_hub == *dev.hub->symbolic_link);
  CHECK(*snap.disks[0].instance_id == "USBSTOR\\DISK&VEN_X&PROD_Y\\" + p + "&0");
  CHECK(snap.disks[0].ancestors[0] == dev.instance_id);
}

TEST_CASE("recording: pseudonyms are stable, short and distinct") {
  CHECK(pseudonym("") == "h:cbf29ce48422");  // FNV-1a 64 offset basis: the hash of nothing
  CHECK(pseudonym("a") == "h:af63dc4c8601");
  CHECK(pseudonym("ENC12345") == pseudonym("ENC12345"));
  CHECK(pseudonym("ENC12345") != pseudonym("ENC12346"));
  CHECK(pseudonym("ENC12345").size() == 14);

  LinuxCapture c;
  RawDevice d;
  d.syspath = "/sys/x";
  d.properties = {{"ID_SERIAL", "V_M_1"}, {"ID_SCSI_SERIAL", "SCSI9999"}, {"ID_MODEL", "M"}};
  c.devices["/sys/x"] = d;
  c.attributes["/sys/x"]["serial"] = "1";  // short: replaced as the value, never inside other text
  c.attributes["/sys/x"]["product"] = "1 of SCSI9999";
  c.devices["/sys/devices/pci0000:00/0000:00:14.0/usb1"] = RawDevice{};
  c.attributes["/sys/devices/pci0000:00/0000:00:14.0/usb1"]["serial"] = "0000:00:14.0";  // a bus id: stays
  hide_serials(c);
  const auto& p = c.devices["/sys/x"]->properties;
  CHECK(p.at("ID_SERIAL") == pseudonym("V_M_1"));
  CHECK(p.at("ID_SCSI_SERIAL") == pseudonym("SCSI9999"));
  CHECK(p.at("ID_MODEL") == "M");
  CHECK(*c.attributes["/sys/x"]["serial"] == pseudonym("1"));
  CHECK(*c.attributes["/sys/x"]["product"] == "1 of " + pseudonym("SCSI9999"));
  CHECK(*c.attributes["/sys/devices/pci0000:00/0000:00:14.0/usb1"]["serial"] == "0000:00:14.0");
}

TEST_CASE("recording: base64 round-trips and rejects what is not base64") {
  for (std::string s : {std::string(), std::string("f"), std::string("fo"), std::string("foo"),
                        std::string("foob"), std::string("\0\xff\x10", 3)})
    CHECK(base64_decode(base64_encode(s)) == s);
  CHECK(base64_encode("foobar") == "Zm9vYmFy");
  CHECK(base64_encode("fo") == "Zm8=");
  for (const char* bad : {"Zm8", "Zm=8", "Z===", "Zm9v!mFy", "=Zm8"}) CHECK_MESSAGE(!base64_decode(bad), bad);
}

TEST_CASE("recording: the envelope parser says what is wrong") {
  struct Case {
    std::string text;
    std::string error;  ///< "" = parses
  };
  const std::vector<Case> cases = {
      {doc_with({}), ""},
      {"", "not a JSON document"},
      {"{\"format\": \"usbsat-recording\", \"version\": 1,", "not a JSON document"},  // truncated
      {"[1, 2]", "not a usbsat recording (the document is not a JSON object)"},
      {doc_with({{"format", "fio-log"}}), "format is \"fio-log\", expected \"usbsat-recording\""},
      {doc_with({{"format", nullptr}}), "missing key \"format\""},
      {doc_with({{"format", 7}}), "\"format\" is not a string"},
      {doc_with({{"version", 2}}), "recording version 2 is newer than this usbsat reads (1)"},
      {doc_with({{"version", 0}}), "recording version 0 does not exist"},
      {doc_with({{"version", "1"}}), "\"version\" is not an integer"},
      {doc_with({{"version", 1.5}}), "\"version\" is not an integer"},
      {doc_with({{"version", nullptr}}), "missing key \"version\""},
      {doc_with({{"platform", nullptr}}), "missing key \"platform\""},
      {doc_with({{"recorded_at", false}}), "\"recorded_at\" is not a string"},
      {doc_with({{"usbsat_version", nullptr}}), "missing key \"usbsat_version\""},
      {doc_with({{"host", nullptr}}), "missing key \"host\""},
      {doc_with({{"data", nullptr}}), "missing key \"data\""},
      {doc_with({{"data", nlohmann::json::array()}}), "\"data\" is not an object"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    if (c.error.empty()) {
      CHECK_NOTHROW(parse_envelope(c.text));
      continue;
    }
    try {
      parse_envelope(c.text);
      FAIL("parsed: " << c.error);
    } catch (const RecordingError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(c.error) != std::string::npos, e.what());
    }
  }
}

TEST_CASE("recording: the platform dispatch and the Linux payload check keys and types") {
  struct Case {
    nlohmann::json changes;
    std::string error;
  };
  FakeSource f = machine();
  const auto good = nlohmann::json::parse(record(f, true));
  const auto data_with = [&](const char* key, nlohmann::json v) {
    auto d = good["data"];
    if (v.is_null())
      d.erase(key);
    else
      d[key] = v;
    return nlohmann::json{{"data", d}};
  };
  const std::vector<Case> cases = {
      {{{"platform", "windows"}, {"data", "not an object"}}, "\"data\" is not an object"},
      {{{"platform", "plan9"}},
       "unknown platform \"plan9\" (this build reads \"linux\" and \"windows\" recordings)"},
      {{{"data", nlohmann::json::object()}}, "data: missing key \"enumerate\""},
      {data_with("devices", nullptr), "data: missing key \"devices\""},
      {data_with("devices", nlohmann::json::array()), "data.devices: expected an object"},
      {data_with("attributes", {{"/sys/x", {{"speed", 5000}}}}),
       "data.attributes[\"/sys/x\"][\"speed\"]: expected a string"},
      {data_with("binary_attributes", {{"/sys/x", {{"descriptors", "!!"}}}}), "not valid base64"},
      {data_with("enumerate", {{"usb", {"/sys/nowhere"}}}), "lists /sys/nowhere, which has no record"},
      {data_with("hwdb", {{"k", {"just-a-string"}}}), "data.hwdb[\"k\"]: expected [key, value] pairs"},
      {data_with("read_problems", {{{"call", -1}}}),
       "data.read_problems[].call: expected a non-negative integer"},
      {data_with("files", {{"/mi", {{"base64", 3}}}}), "data.files[\"/mi\"]: expected a string or"},
  };
  for (const auto& c : cases) {
    auto doc = good;
    for (const auto& [k, v] : c.changes.items()) doc[k] = v;
    CAPTURE(c.error);
    try {
      load_recording_text(doc.dump(), kConfig);
      FAIL("loaded");
    } catch (const RecordingError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(c.error) != std::string::npos, e.what());
    }
  }
  CHECK_NOTHROW(load_recording_text(good.dump(), kConfig));
  // A Windows payload goes to the Windows builder (topology/windows): an empty snapshot is an empty machine.
  auto windows_doc = good;
  windows_doc["platform"] = "windows";
  windows_doc["data"] = nlohmann::json::object();
  CHECK(load_recording_text(windows_doc.dump(), kConfig).topology.controllers().empty());
}

namespace {

/// The validating reader's capture of `text` as JSON, or nullopt when it refuses the text.
std::optional<nlohmann::json> validated(const std::string& text) {
  try {
    const Envelope e = parse_envelope(text);
    if (e.platform != "linux") return std::nullopt;
    return to_json(linux_capture_from_json(e.data));
  } catch (const RecordingError&) {
    return std::nullopt;
  }
}

/// The fast reader agrees with the validating one on `text`: the same capture, or it declines (nullopt) and
/// leaves the text to the validating reader. `must_read`: it may not decline.
void check_fast_reader(const std::string& text, bool must_read) {
  const auto fast = read_linux_recording_fast(text);
  if (must_read) REQUIRE(fast.has_value());
  if (!fast) return;
  const auto slow = validated(text);
  REQUIRE_MESSAGE(slow.has_value(), "the fast reader took a recording the validating reader refuses");
  CHECK(to_json(fast->capture) == *slow);
  CHECK(fast->host == parse_envelope(text).host);
}

/// Every value under `j` (a JSON pointer each), for the mutations below.
void pointers(const nlohmann::json& j, const nlohmann::json::json_pointer& at,
              std::vector<nlohmann::json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object())
    for (const auto& [k, v] : j.items()) pointers(v, at / k, out);
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) pointers(j[i], at / i, out);
}

}  // namespace

TEST_CASE("recording: the fast reader reads every sample as the validating reader does") {
  for (const char* name : {"workstation", "asm1042-card", "tb-dock"}) {
    CAPTURE(name);
    std::ifstream in(std::string(USBSAT_SOURCE_DIR) + "/topology/recording/samples/" + name + ".json");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    check_fast_reader(ss.str(), true);
  }
  FakeSource f = machine();
  check_fast_reader(record(f, true), true);  // base64 text, binary attributes, read problems, hwdb, files
}

TEST_CASE("recording: the fast reader declines whatever it does not read exactly as the validating reader") {
  FakeSource f = machine();
  const auto good = nlohmann::json::parse(record(f, true));
  std::vector<nlohmann::json::json_pointer> all;
  pointers(good, nlohmann::json::json_pointer(), all);
  // Every value replaced by each of these, and every key removed or doubled (with another value), one at a
  // time: the fast reader either gives the validating reader's capture or declines.
  const std::vector<nlohmann::json> values = {nullptr,
                                              7,
                                              -1,
                                              1.5,
                                              true,
                                              "x",
                                              "!!",
                                              nlohmann::json::array(),
                                              nlohmann::json::object(),
                                              {{"base64", "QQ=="}},
                                              {{"base64", "!"}},
                                              {{"base64", "QQ=="}, {"x", 1}},
                                              {"a", "b"},
                                              {"a", "b", "c"}};
  std::size_t mutations = 0;
  for (const auto& p : all) {
    for (const auto& v : values) {
      auto doc = good;
      doc[p] = v;
      CAPTURE(p.to_string());
      CAPTURE(v.dump());
      check_fast_reader(doc.dump(), false);
      ++mutations;
    }
    if (p.empty() || !good[p.parent_pointer()].is_object()) continue;
    auto removed = good;
    removed[p.parent_pointer()].erase(p.back());
    check_fast_reader(removed.dump(), false);
    // A doubled key: nlohmann keeps one, so write the text by hand: {"k": 7, <the object's members>}.
    const std::string member = nlohmann::json(p.back()).dump();
    auto text = good.dump();
    const auto object_text = good[p.parent_pointer()].dump();
    const auto at = text.find(object_text);
    REQUIRE(at != std::string::npos);
    text.insert(at + 1, member + ":7,");
    check_fast_reader(text, false);
    mutations += 2;
  }
  CHECK(mutations > 1000);
  // Not JSON, truncated, trailing text, another platform: all declined.
  const std::string text = good.dump();
  for (const auto& bad : {std::string(), text.substr(0, text.size() / 2), text + "x", std::string("[1]")})
    CHECK_FALSE(read_linux_recording_fast(bad).has_value());
  auto windows = good;
  windows["platform"] = "windows";
  CHECK_FALSE(read_linux_recording_fast(windows.dump()).has_value());
}

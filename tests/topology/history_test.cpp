// The history store (topology/history): its values' rules, the strict JSON reader, and which drive a block
// device is.
#include <doctest/doctest.h>

#include <functional>

#include <fmt/format.h>

#include "tests/support/machines.hpp"
#include "topology/history/identity.hpp"
#include "topology/history/store.hpp"
#include "topology/history/store_json.hpp"
#include "topology/recording/serials.hpp"

using namespace usbsat;
using namespace usbsat::history;

namespace {

Measurement meas(std::string date, double mbs, std::string pattern = "read",
                 std::vector<std::string> group = {}) {
  Measurement m;
  m.date = std::move(date);
  m.version = "0.1.0";
  m.command = "load";
  m.pattern = std::move(pattern);
  m.block_size = 131072;
  m.queue_depth = 1;
  m.group = std::move(group);
  m.mbs = mbs;
  m.iops = mbs * 1e6 / 131072;
  m.device = "sdb";
  m.connector = "usb4-port1";
  m.rate = "USB 3.2 Gen 1";
  m.protocol = "uas";
  m.controller = "0000:03:00.0";
  return m;
}

DriveRecord drive(std::string serial, std::uint64_t size = 1000) {
  DriveRecord d;
  d.vid_pid = "04e8:61f5";
  d.serial = std::move(serial);
  d.size_bytes = size;
  d.key = drive_key(d.vid_pid, d.serial, d.size_bytes);
  d.model = "Portable SSD T5";
  return d;
}

Store sample() {
  Store s;
  add_measurement(s, drive("h:0123456789ab"), meas("2026-12-06T10:00:00Z", 150.5));
  add_measurement(s, drive("h:0123456789ab"), meas("2026-12-06T10:01:00Z", 75, "read", {"sdb", "sdc"}));
  ResourceRecord r{"pcie_link:0000:03:00.0",
                   "1b21:1042",
                   "pcie_link",
                   "PCIe 2.0 x1 link of 0000:03:00.0",
                   318,
                   400.0,
                   false,
                   "2026-12-06T10:02:00Z",
                   "0.1.0",
                   {"sdb", "sdc"}};
  set_resource(s, r);
  return s;
}

}  // namespace

TEST_CASE("history store: written and read back unchanged") {
  const auto s = sample();
  const auto parsed = parse_store_text(write_store(s));
  REQUIRE(parsed.store);
  CHECK(*parsed.store == s);
  CHECK(write_store(s).starts_with("{\n  \"format\": \"usbsat-history\",\n  \"version\": 1,"));
}

TEST_CASE("history store: every bad document is refused with where and what") {
  struct Row {
    const char* what;
    std::function<void(nlohmann::json&)> spoil;
    const char* error;
  };
  const std::vector<Row> rows{
      {"another format", [](auto& j) { j["format"] = "usbsat-recording"; }, "not a usbsat history"},
      {"a newer version", [](auto& j) { j["version"] = 2; }, "version 2"},
      {"no drives", [](auto& j) { j.erase("drives"); }, "document.drives: missing"},
      {"drives not an array", [](auto& j) { j["drives"] = 3; }, "not an array"},
      {"a string that is a number", [](auto& j) { j["drives"][0]["model"] = 5; },
       "drives[0].model: not a string"},
      {"a control character", [](auto& j) { j["drives"][0]["model"] = "x\x1b[2Jy"; }, "a control character"},
      {"a negative rate", [](auto& j) { j["drives"][0]["measurements"][0]["mbs"] = -1; }, "out of range"},
      {"a huge rate", [](auto& j) { j["drives"][0]["measurements"][0]["mbs"] = 1e20; }, "out of range"},
      {"a fractional queue depth", [](auto& j) { j["drives"][0]["measurements"][0]["queue_depth"] = 1.5; },
       "not an integer"},
      {"a key that is not its parts", [](auto& j) { j["drives"][0]["key"] = "x"; }, "does not match"},
      {"a group of one thousand",
       [](auto& j) { j["drives"][0]["measurements"][0]["group"] = std::vector<std::string>(1000, "a"); },
       "more than 64 entries"},
      {"at_least not a boolean", [](auto& j) { j["resources"][0]["at_least"] = "yes"; }, "not true or false"},
      {"a huge string", [](auto& j) { j["resources"][0]["label"] = std::string(600, 'a'); }, "longer than"},
  };
  CHECK(rows.size() == 13);
  const auto good = nlohmann::json::parse(write_store(sample()));
  for (const auto& r : rows) {
    CAPTURE(r.what);
    auto doc = good;
    r.spoil(doc);
    const auto p = parse_store(doc);
    CHECK_FALSE(p.store);
    CHECK(p.error.find(r.error) != std::string::npos);
  }
  CHECK(parse_store_text("{\"format\": \"usbsat-hist").error.find("not valid JSON") != std::string::npos);
  CHECK(parse_store_text(std::string(kMaxStoreBytes + 1, ' ')).error.find("larger than") !=
        std::string::npos);
  auto newer = good;
  newer["version"] = 2;
  CHECK(parse_store(newer).foreign_version);
}

TEST_CASE("history store: bounded, no duplicates, merges two writers") {
  Store s;
  for (int i = 0; i < 40; ++i)
    add_measurement(s, drive("a"), meas(fmt::format("2026-12-06T10:{:02}:00Z", i), i + 1));
  REQUIRE(s.drives.size() == 1);
  CHECK(s.drives[0].measurements.size() == kMaxMeasurementsPerDrive);
  CHECK(s.drives[0].measurements.front().mbs == 9);  // the 8 oldest went
  add_measurement(s, drive("a"), meas("2026-12-06T10:39:00Z", 40));
  CHECK(s.drives[0].measurements.size() == kMaxMeasurementsPerDrive);  // the same one is not added twice

  Store many;
  for (std::size_t i = 0; i <= kMaxDrives; ++i)
    add_measurement(many, drive("d" + std::to_string(i)),
                    meas(fmt::format("2026-12-{:02}T00:00:00Z", 1 + i % 28), 1));
  CHECK(many.drives.size() == kMaxDrives);

  Store one, two;
  add_measurement(one, drive("a"), meas("2026-12-06T10:00:00Z", 100));
  add_measurement(two, drive("b"), meas("2026-12-06T10:00:01Z", 200));
  add_measurement(two, drive("a"), meas("2026-12-06T10:00:02Z", 110));
  merge(one, two);
  REQUIRE(one.drives.size() == 2);
  CHECK(one.drives[0].measurements.size() == 2);
  CHECK(forget_drive(one, drive("b").key));
  CHECK_FALSE(forget_drive(one, drive("b").key));
  CHECK(one.drives.size() == 1);
}

TEST_CASE("latest_alone: the newest sequential measurement alone") {
  auto d = drive("a");
  d.measurements = {meas("2026-12-06T09:00:00Z", 140),
                    meas("2026-12-06T10:00:00Z", 70, "read", {"sdb", "sdc"}),
                    meas("2026-12-06T11:00:00Z", 30, "randread"), meas("2026-12-06T08:00:00Z", 150, "write")};
  REQUIRE(latest_alone(d));
  CHECK(latest_alone(d)->mbs == 140);
  d.measurements.push_back(meas("2026-12-06T09:00:00Z", 120, "write"));
  CHECK(latest_alone(d)->mbs == 140);  // read before write at the same time
  d.measurements = {meas("2026-12-06T11:00:00Z", 30, "randread")};
  CHECK_FALSE(latest_alone(d));
}

TEST_CASE("calibrations: one per measured resource, as the capacity model takes them") {
  const auto c = calibrations(sample());
  REQUIRE(c.size() == 1);
  const auto& cal = c.at("pcie_link:0000:03:00.0");
  CHECK(cal.identity == "1b21:1042");
  CHECK(cal.mbs == 318);
  CHECK(cal.basis.kind == topology::BasisKind::Measured);
  CHECK(cal.basis.date == "2026-12-06T10:02:00Z");
}

TEST_CASE("drive_identity: vid:pid, the serial's pseudonym and the size (a recording's pseudonym stays)") {
  const auto t = usbsat::testing::asm1042_card();
  const auto id = drive_identity(t, *t.find_by_name("sda"));
  REQUIRE(id);
  CHECK(id->vid_pid == "0bc2:2322");
  CHECK(id->serial == topology::recording::pseudonym("NAAB1234"));
  CHECK(id->key == "0bc2:2322:" + id->serial + ":5000981078016");
  const auto place = place_of(t, *t.find_by_name("sda"));
  CHECK(place.device == "sda");
  CHECK(place.rate == "USB 3.2 Gen 1");
  CHECK(place.protocol == "uas");
  CHECK(place.controller == "0000:03:00.0");
  CHECK(place.connector == "usb4-port1");

  usbsat::testing::Machine m;
  const auto x = m.controller(std::nullopt, "0000:00:14.0", topology::HcdKind::Xhci, {});
  const auto u = m.root_hub(x, 2, topology::UsbSpeed::Super, 2);
  m.drive(usbsat::testing::Machine::port_of(u, 1), {.vid = 1, .pid = 2, .serial = id->serial},
          {.name = "sdb", .size_bytes = 5000981078016});
  const auto t2 = m.finish();
  CHECK(drive_identity(t2, *t2.find_by_name("sdb"))->serial == id->serial);
}

// The watch verdict rendered as it is (topology/results/watch.hpp, no conversion): the notes, a shared
// node's kind, the move's speed, the text and JSON renderings of it, and the goldens.
#include <doctest/doctest.h>

#include <algorithm>

#include "report/watch_report.hpp"
#include "src/analysis/watch/verdict.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using analysis::watch::verdict;

TEST_CASE("watch render: notes, shared node kinds, headlines and why it runs Bulk-Only") {
  const auto t = testing::workstation();
  const topology::Topology empty;
  const auto v = verdict(empty, t, {"add", "sde"});
  REQUIRE(v);
  REQUIRE(v->move);
  const auto text = report::render_watch_text(*v);
  CHECK(text.rfind("+ sde", 0) == 0);
  CHECK(std::count(text.begin(), text.end(), '\n') > 1);
  const auto note = text.find("  note: ");
  REQUIRE(note != std::string::npos);
  CHECK(text.find("  note: ", note + 1) == std::string::npos);  // one note
  CHECK(text.find("connector usb1-port4 is", note) != std::string::npos);
  const std::string speed(topology::to_string(v->move->connector.speed_class));
  CHECK(text.find("move it to " + v->move->description + ": " + speed + ", ") != std::string::npos);
  const auto json = report::render_watch_json(*v);
  CHECK(json.find("\"speed\":\"" + speed + "\"") != std::string::npos);
  CHECK(json.find("\"time\":null") != std::string::npos);
  CHECK(report::render_watch_json(*v, "2026-12-06T12:00:00.000Z")
            .find("\"time\":\"2026-12-06T12:00:00.000Z\"") != std::string::npos);

  const auto card = testing::asm1042_card();
  const auto shared = verdict(card, card, {"add", "sdb"});
  REQUIRE(shared);
  REQUIRE(!shared->sharing.empty());
  CHECK(shared->sharing.back().node == "0000:03:00.0");
  CHECK(shared->sharing.back().kind == topology::NodeKind::Controller);
  // the schema's name for a Controller node
  CHECK(report::render_watch_json(*shared).find(R"("kind":"controller","node":"0000:03:00.0")") !=
        std::string::npos);

  const auto bot = testing::asm1042_card(topology::StorageProtocol::Bot);
  const auto b = verdict(bot, bot, {"add", "sdb"});
  REQUIRE(b);
  CHECK_FALSE(report::protocol_reason(*b).empty());

  const auto r = verdict(t, empty, {"remove", "sdb"});
  REQUIRE(r);
  CHECK_FALSE(r->running);  // no notes for a removed drive
  CHECK(report::render_watch_json(*r).find("\"notes\":[]") != std::string::npos);
  CHECK(report::render_watch_text(*r).rfind("- sdb", 0) == 0);
}

TEST_CASE("watch JSON: one line per event, the verdict's fields") {
  const auto t = testing::workstation();
  const auto v = verdict(t, t, {"add", "sde"});
  REQUIRE(v);
  const auto line = report::render_watch_json(*v);
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);
  CHECK(line.back() == '\n');
  CHECK(line.find("\"action\":\"add\"") != std::string::npos);
  CHECK(line.find("\"dev\":\"sde\"") != std::string::npos);
}

TEST_CASE("watch: text and JSON goldens of an add and a remove on the workstation") {
  const auto t = testing::workstation();
  const topology::Topology empty;
  const auto add = verdict(empty, t, {"add", "sde"});
  const auto remove = verdict(t, empty, {"remove", "sde"});
  REQUIRE(add);
  REQUIRE(remove);
  testing::check_golden("watch_workstation.txt",
                        report::render_watch_text(*add) + report::render_watch_text(*remove));
  testing::check_golden("watch_workstation.jsonl",
                        report::render_watch_json(*add) + report::render_watch_json(*remove));
}

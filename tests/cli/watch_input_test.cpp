// The watch verdict as report input (src/cli/watch_input.hpp): the notes, a shared node's kind, the text
// and JSON renderings of it, and the goldens.
#include <doctest/doctest.h>

#include <algorithm>

#include "report/watch_report.hpp"
#include "src/analysis/watch/verdict.hpp"
#include "src/cli/watch_input.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using analysis::watch::verdict;
using cli::to_report;

TEST_CASE("watch input: notes, shared node kinds, headlines and why it runs Bulk-Only") {
  const auto t = testing::workstation();
  const topology::Topology empty;
  const auto v = verdict(empty, t, {"add", "sde"});
  REQUIRE(v);
  REQUIRE(v->move);
  const auto e = to_report(*v);
  REQUIRE(e.notes.size() == 1);
  CHECK(e.notes[0].find("connector usb1-port4 is") != std::string::npos);
  REQUIRE(e.move);
  CHECK(e.move->speed == std::string(topology::to_string(v->move->connector.speed_class)));
  CHECK(e.findings.size() == v->findings.size());
  const auto text = report::render_watch_text(e);
  CHECK(text.rfind("+ sde", 0) == 0);
  CHECK(text.find("move it to " + v->move->description) != std::string::npos);

  const auto card = testing::asm1042_card();
  const auto shared = verdict(card, card, {"add", "sdb"});
  REQUIRE(shared);
  const auto se = to_report(*shared);
  REQUIRE(se.sharing.size() == shared->sharing.size());
  REQUIRE(!se.sharing.empty());
  CHECK(se.sharing.back().node == "0000:03:00.0");
  CHECK(se.sharing.back().kind == "controller");  // the schema's name for a Controller node

  const auto bot = testing::asm1042_card(topology::StorageProtocol::Bot);
  const auto b = verdict(bot, bot, {"add", "sdb"});
  REQUIRE(b);
  CHECK_FALSE(report::protocol_reason(to_report(*b)).empty());

  const auto r = verdict(t, empty, {"remove", "sdb"});
  REQUIRE(r);
  const auto re = to_report(*r);
  CHECK(re.notes.empty());
  CHECK(report::render_watch_text(re).rfind("- sdb", 0) == 0);
}

TEST_CASE("watch JSON: one line per event, the verdict's fields") {
  const auto t = testing::workstation();
  const auto v = verdict(t, t, {"add", "sde"});
  REQUIRE(v);
  const auto line = report::render_watch_json(to_report(*v));
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
  testing::check_golden("watch_workstation.txt", report::render_watch_text(to_report(*add)) +
                                                     report::render_watch_text(to_report(*remove)));
  testing::check_golden("watch_workstation.jsonl", report::render_watch_json(to_report(*add)) +
                                                       report::render_watch_json(to_report(*remove)));
}

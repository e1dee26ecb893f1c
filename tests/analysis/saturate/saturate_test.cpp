// `usbsat saturate` orchestration without I/O: parsing, planning (groups, phases, queue depth by protocol),
// the measurement and its report: tests/cli/saturate_input_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "src/analysis/saturate/saturate.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using namespace usbsat::analysis::model;
using namespace usbsat::analysis::saturate;
using namespace usbsat::analysis::common;  // parse_group_spec (shared with `top`)
using usbsat::topology::Bandwidth;
using usbsat::topology::StorageProtocol;

TEST_CASE("parse_group_spec: NAME=/dev/a,/dev/b with an optional @CAP") {
  auto g = parse_group_spec("a=/dev/loop2,/dev/loop3@40M");
  REQUIRE(g);
  CHECK(g->name == "a");
  CHECK(g->paths == std::vector<std::string>{"/dev/loop2", "/dev/loop3"});
  REQUIRE(g->capacity);
  CHECK(g->capacity->mbs() == doctest::Approx(40));

  g = parse_group_spec("bus1=/tmp/x,/tmp/y,/tmp/z");
  REQUIRE(g);
  CHECK(g->paths.size() == 3);
  CHECK(!g->capacity);

  CHECK(!parse_group_spec("a=/dev/loop2"));      // one drive shares nothing
  CHECK(!parse_group_spec("=/dev/a,/dev/b"));    // no name
  CHECK(!parse_group_spec("/dev/a,/dev/b"));     // no '='
  CHECK(!parse_group_spec("a=/dev/a,,/dev/b"));  // empty path
  CHECK(!parse_group_spec("a=/dev/a,/dev/a"));   // the same drive twice
  CHECK(parse_group_spec("a=/dev/a,/dev/b@40")->capacity->mbs() == doctest::Approx(40));  // bare: MB/s
  CHECK(!parse_group_spec("a=/dev/a,/dev/b@fast"));
}

TEST_CASE("parse_group_spec: every refusal says why, capacities outside 1K..1000G are refused, not clamped") {
  struct Row {
    const char* spec;
    const char* why;
  };
  const Row rows[] = {
      {"a=/dev/a,/dev/b@1e30", "capacity '1e30' is not a rate from 1K to 1000G bytes/s"},
      {"a=/dev/a,/dev/b@2000G", "capacity '2000G' is not a rate"},
      {"a=/dev/a,/dev/b@0.0001", "capacity '0.0001' is not a rate"},
      {"a=/dev/a,/dev/b@fast", "capacity 'fast' is not a rate"},
      {"a=/dev/a", "at least two drives"},
      {"/dev/a,/dev/b", "the NAME= is missing"},
      {"a=/dev/a,,/dev/b", "an empty drive path"},
      {"a=/dev/a,/dev/a", "'/dev/a' is named twice"},
      {"a=/dev/x,/dev/y@40M@50M",
       "'/dev/y@40M': a drive path cannot hold '@'; give one capacity, at the end"},
      {"a=/dev/x@40M,/dev/y@40M", "'/dev/x@40M': a drive path cannot hold '@'"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.spec);
    std::string why;
    CHECK_FALSE(parse_group_spec(r.spec, &why));
    CHECK(why.find(r.why) != std::string::npos);
  }
  std::string why;
  CHECK(parse_group_spec("a=/dev/a,/dev/b@1000G", &why));
  CHECK(parse_group_spec("a=/dev/a,/dev/b@1K", &why));
  CHECK(why.empty());
}

TEST_CASE("check_group_specs: two groups with one name are refused") {
  const GroupSpec a{"a", {"/dev/x", "/dev/y"}, std::nullopt}, a2{"a", {"/dev/z", "/dev/w"}, std::nullopt},
      b{"b", {"/dev/z", "/dev/w"}, std::nullopt};
  CHECK_FALSE(check_group_specs(std::vector<GroupSpec>{a, b}));
  const auto e = check_group_specs(std::vector<GroupSpec>{a, b, a2});
  REQUIRE(e);
  CHECK(*e == "two groups are named 'a': give each its own name");
}

TEST_CASE("phase_levels: alone, 2, 4 and all") {
  CHECK(phase_levels(1) == std::vector<unsigned>{1});
  CHECK(phase_levels(2) == std::vector<unsigned>{1, 2});
  CHECK(phase_levels(3) == std::vector<unsigned>{1, 2, 3});
  CHECK(phase_levels(4) == std::vector<unsigned>{1, 2, 4});
  CHECK(phase_levels(6) == std::vector<unsigned>{1, 2, 4, 6});
}

TEST_CASE("queue depth by protocol: BOT 1, UAS 32, mixed the deeper, --qd wins") {
  CHECK(protocol_queue_depth(StorageProtocol::Bot) == 1);
  CHECK(protocol_queue_depth(StorageProtocol::Uas) == 32);
  CHECK(protocol_queue_depth(StorageProtocol::None) == 32);

  const auto bot = testing::asm1042_card(StorageProtocol::Bot);
  auto plan = plan_topology(bot, {}, std::nullopt);
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].qd == 1);
  CHECK(plan.groups[0].node_kind == "controller");
  CHECK(plan.groups[0].levels == std::vector<unsigned>{1, 2});
  CHECK(plan.groups[0].drives[0].path == "/dev/sda");

  const auto uas = testing::asm1042_card(StorageProtocol::Uas);
  plan = plan_topology(uas, {}, std::nullopt);
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].qd == 32);
  plan = plan_topology(uas, {}, 4u);
  CHECK(plan.groups[0].qd == 4);
  CHECK(plan.groups[0].qd_reason == "--qd");

  const auto mixed = testing::usb3_hub_ssd_and_stick(true);
  plan = plan_topology(mixed, {}, std::nullopt);
  REQUIRE(!plan.groups.empty());
  CHECK(plan.groups[0].qd == 32);
  CHECK(plan.groups[0].qd_reason.find("mixed") != std::string::npos);
}

TEST_CASE("plan_topology: groups by shared node, restricted to the named drives") {
  const auto t = testing::legacy_ehci();
  auto plan = plan_topology(t, {}, std::nullopt);
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].drives.size() == 4);
  CHECK(plan.groups[0].levels == std::vector<unsigned>{1, 2, 4});
  CHECK(plan.groups[0].qd == 1);

  const std::vector<std::string> only{"sdb", "/dev/sdc"};
  plan = plan_topology(t, only, std::nullopt);
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].drives.size() == 2);

  const std::vector<std::string> one{"sdb"};
  plan = plan_topology(t, one, std::nullopt);
  CHECK(plan.groups.empty());

  // Drives on separate controllers of a switch card share the switch: one group at the switch.
  const auto sw = testing::pcie_switch_card(4);
  plan = plan_topology(sw, {}, std::nullopt);
  REQUIRE(!plan.groups.empty());
  CHECK(plan.groups[0].drives.size() == 4);
}

TEST_CASE("parse_group_specs: every --group of a command line, the first problem as the usage message") {
  std::string why;
  const std::vector<std::string> good = {"a=/dev/loop2,/dev/loop3@40M", "b=/dev/loop4,/dev/loop5"};
  const auto specs = parse_group_specs(good, &why);
  REQUIRE(specs);
  CHECK(specs->size() == 2);
  CHECK((*specs)[1].name == "b");
  CHECK_FALSE(parse_group_specs(std::vector<std::string>{"a=/dev/x,/dev/y", "a=/dev/z,/dev/w"}, &why));
  CHECK(why == "two groups are named 'a': give each its own name");
  CHECK_FALSE(parse_group_specs(std::vector<std::string>{"a=/dev/x,/dev/y", "b=/dev/x"}, &why));
  CHECK(why.rfind("bad --group 'b=/dev/x': ", 0) == 0);
  CHECK(parse_group_specs(std::vector<std::string>{}, &why)->empty());
}

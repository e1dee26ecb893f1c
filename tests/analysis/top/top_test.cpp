// usbsat top's pure pieces: the stat parser, the nodes from a topology and from --group, and the rates
// between two samples (stat texts + injected timestamps).
#include <doctest/doctest.h>

#include "src/analysis/top/block_stat.hpp"
#include "src/analysis/top/nodes.hpp"
#include "src/analysis/top/rates.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
using namespace usbsat::analysis::top;

namespace {

/// A stat line with `rd` sectors read and `wr` sectors written (the other fields arbitrary).
std::string stat_line(std::uint64_t rd, std::uint64_t wr) {
  return "    1234        0  " + std::to_string(rd) + "     800     4321        0  " + std::to_string(wr) +
         "     900        0     1000     1700        0        0        0        0\n";
}

}  // namespace

TEST_CASE("parse_block_stat: sectors read and written x512, garbage refused") {
  struct Row {
    std::string text;
    std::optional<BlockIo> want;
  };
  const Row rows[] = {
      {stat_line(2048, 10), BlockIo{2048 * 512, 10 * 512}},
      {"1 2 3 4 5 6 7", BlockIo{3 * 512, 7 * 512}},  // the oldest kernels: 7 fields
      {"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", BlockIo{3 * 512, 7 * 512}},  // 5.5+: 17 fields
      {"1 2 3 4 5 6", std::nullopt},                                               // too short
      {"", std::nullopt},
      {"1 2 x 4 5 6 7", std::nullopt},
      {"1 2 -3 4 5 6 7", std::nullopt},
      {"1 2 3abc 4 5 6 7", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_block_stat(r.text) == r.want);
  }
}

TEST_CASE("node_rates: bytes per interval, utilisation, the bottleneck mark and the order") {
  const std::vector<TopNode> nodes = {
      {"group:bus", "declared", "group bus", {"loop1", "loop2"}, topology::Bandwidth::from_mbs(40)},
      {"group:fast", "declared", "group fast", {"loop3"}, topology::Bandwidth::from_mbs(400)},
      {"drive_link:2-1", "drive_link", "link", {"loop4"}, std::nullopt},
  };
  // 2 s apart: loop1 +40 MB, loop2 +36 MB (reads and writes), loop3 +8 MB, loop4 +2 MB.
  const auto s0 = make_sample(10.0, {{"loop1", stat_line(0, 0)},
                                     {"loop2", stat_line(1000, 0)},
                                     {"loop3", stat_line(0, 0)},
                                     {"loop4", stat_line(0, 0)}});
  const auto s1 = make_sample(12.0, {{"loop1", stat_line(78125, 0)},
                                     {"loop2", stat_line(1000 + 50000, 20313)},
                                     {"loop3", stat_line(15625, 0)},
                                     {"loop4", stat_line(0, 3906)}});
  const auto r = node_rates(nodes, s0, s1);
  REQUIRE(r.size() == 3);
  CHECK(r[0].node.id == "group:bus");
  CHECK(r[0].read_mbs == doctest::Approx((78125 + 50000) * 512 / 2.0 / 1e6));
  CHECK(r[0].write_mbs == doctest::Approx(20313 * 512 / 2.0 / 1e6));
  CHECK(r[0].mbs == doctest::Approx(r[0].read_mbs + r[0].write_mbs));
  CHECK(*r[0].utilisation == doctest::Approx(r[0].mbs / 40));
  CHECK(r[0].bottleneck);  // 37.6 MB/s of 40: 94%
  CHECK(r[1].node.id == "group:fast");
  CHECK(r[1].mbs == doctest::Approx(4.0));
  CHECK(*r[1].utilisation == doctest::Approx(0.01));
  CHECK_FALSE(r[1].bottleneck);
  CHECK(r[2].node.id == "drive_link:2-1");  // no capacity: last, no utilisation
  CHECK_FALSE(r[2].utilisation);
  CHECK(r[2].mbs == doctest::Approx(3906 * 512 / 2.0 / 1e6));
}

TEST_CASE("node_rates: just below the threshold is no bottleneck, missing and backwards counters") {
  const std::vector<TopNode> nodes = {
      {"group:g", "declared", "group g", {"a", "b"}, topology::Bandwidth::from_mbs(10)}};
  // a: 8.9 MB in 1 s (89%); b: unreadable in the second sample.
  const auto s0 = make_sample(0, {{"a", stat_line(0, 0)}, {"b", stat_line(100, 0)}});
  auto s1 = make_sample(1, {{"a", stat_line(17383, 0)}, {"b", std::nullopt}});
  auto r = node_rates(nodes, s0, s1);
  CHECK(*r[0].utilisation == doctest::Approx(17383 * 512 / 1e7));
  CHECK_FALSE(r[0].bottleneck);
  CHECK(r[0].missing == std::vector<std::string>{"b"});
  // b comes back with a smaller counter (a new device under the same name): zero, not a wrap-around.
  const auto s2 = make_sample(2, {{"a", stat_line(17383, 0)}, {"b", stat_line(5, 0)}});
  r = node_rates(nodes, s0, s2);
  CHECK(r[0].mbs == doctest::Approx(17383 * 512 / 2.0 / 1e6));
  CHECK(r[0].missing.empty());
  // An unparseable text is as good as unreadable.
  s1 = make_sample(1, {{"a", std::string("garbage")}, {"b", stat_line(100, 0)}});
  CHECK(node_rates(nodes, s0, s1)[0].missing == std::vector<std::string>{"a"});
}

TEST_CASE(
    "topology_nodes: every resource on the drives' paths with the drives crossing it, capacities from the "
    "model") {
  const auto t = testing::asm1042_card();
  const auto nodes = topology_nodes(t);
  auto find = [&](std::string_view id) -> const TopNode* {
    for (const auto& n : nodes)
      if (n.id == id) return &n;
    return nullptr;
  };
  const auto* link = find("pcie_link:0000:03:00.0");
  REQUIRE(link);
  CHECK(link->devices == std::vector<std::string>{"sda", "sdb"});
  REQUIRE(link->capacity);
  // The same figure as the bandwidth model's own resource list.
  const auto sda = t.find_by_name("sda");
  REQUIRE(sda);
  for (const auto& r : topology::path_resources(t, *sda)) {
    const auto* n = find(r.id);
    REQUIRE(n);
    CHECK(n->capacity == r.capacity);
    CHECK(n->kind == topology::to_string(r.kind));
  }
  const auto* own = find("drive_link:4-2");
  REQUIRE(own);
  CHECK(own->devices == std::vector<std::string>{"sdb"});
}

TEST_CASE("group_nodes: one declared node per --group, devices without /dev/") {
  const auto g = analysis::common::parse_group_spec("bus=/dev/loop3,/dev/loop4@40M");
  REQUIRE(g);
  const auto nodes = group_nodes(std::vector{*g});
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].id == "group:bus");
  CHECK(nodes[0].kind == "declared");
  CHECK(nodes[0].devices == std::vector<std::string>{"loop3", "loop4"});
  CHECK(nodes[0].capacity->mbs() == doctest::Approx(40));
}

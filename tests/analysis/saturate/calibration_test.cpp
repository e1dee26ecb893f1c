// What a judged group tells about a modelled resource's capacity (src/analysis/saturate/calibration.hpp).
#include <doctest/doctest.h>

#include "src/analysis/model/grouping.hpp"
#include "src/analysis/saturate/calibration.hpp"
#include "src/analysis/saturate/group_input.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat::analysis::model;
using namespace usbsat::analysis::saturate;
using namespace usbsat::testing;
using usbsat::topology::ResourceKind;

namespace {

GroupInput card_group(std::vector<PhaseMeasurement> phases) {
  const auto t = asm1042_card(usbsat::topology::StorageProtocol::Bot);
  std::vector<Vertex> vs{block(t, "sda"), block(t, "sdb")};
  const auto groups = shared_node_groups(t, vs, usbsat::topology::nominal_model());
  REQUIRE(!groups.empty());
  return topology_group_input(t, groups.front(), std::move(phases));
}

}  // namespace

TEST_CASE("a plateau on the named link: that link measured at the plateau") {
  const auto in = card_group({{1, {{"sda", {310}}, {"sdb", {310}}}}, {2, {{"sda", {197}}, {"sdb", {195}}}}});
  const auto c = measured_capacity(in, attribute(in));
  REQUIRE(c);
  CHECK(c->resource.kind == ResourceKind::PcieLink);
  CHECK(c->resource.node == "0000:03:00.0");
  CHECK(c->mbs == doctest::Approx(392));
  CHECK_FALSE(c->at_least);
  CHECK(c->drives == std::vector<std::string>{"sda", "sdb"});
}

TEST_CASE("a plateau below every modelled link: the nearest shared resource, the controller") {
  const auto in = card_group({{1, {{"sda", {300}}, {"sdb", {300}}}}, {2, {{"sda", {150}}, {"sdb", {150}}}}});
  const auto v = attribute(in);
  CHECK(v.verdict != Verdict::NoContention);
  const auto c = measured_capacity(in, v);
  REQUIRE(c);
  CHECK(c->resource.kind == ResourceKind::Controller);
  CHECK(c->resource.node == "0000:03:00.0");
  CHECK(c->mbs == doctest::Approx(300));
  CHECK_FALSE(c->resource.capacity);  // the model does not limit a controller
}

TEST_CASE("no contention where the model predicted some: the predicted link carries at least the aggregate") {
  const auto in = card_group({{1, {{"sda", {300}}, {"sdb", {300}}}}, {2, {{"sda", {298}}, {"sdb", {299}}}}});
  const auto v = attribute(in);
  CHECK(v.verdict == Verdict::NoContention);
  const auto c = measured_capacity(in, v);
  REQUIRE(c);
  CHECK(c->resource.kind == ResourceKind::PcieLink);
  CHECK(c->at_least);
  CHECK(c->mbs == doctest::Approx(597));
}

TEST_CASE("nothing measured of a resource: no contention predicted or seen, or a user's --group") {
  const auto quiet =
      card_group({{1, {{"sda", {100}}, {"sdb", {100}}}}, {2, {{"sda", {100}}, {"sdb", {100}}}}});
  CHECK_FALSE(measured_capacity(quiet, attribute(quiet)));
  const auto declared = declared_group_input(
      "bus", {"/dev/a", "/dev/b"}, std::nullopt,
      {{1, {{"/dev/a", {40}}, {"/dev/b", {40}}}}, {2, {{"/dev/a", {20}}, {"/dev/b", {20}}}}});
  CHECK_FALSE(measured_capacity(declared, attribute(declared)));
}

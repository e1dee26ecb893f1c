#include <doctest/doctest.h>

#include "topology/model/pcie_link.hpp"

using namespace usbsat::topology;

TEST_CASE("parse_pcie_speed handles old and new kernel spellings") {
  struct Row {
    const char* text;
    std::optional<double> gts;
  };
  const Row rows[] = {{"2.5 GT/s", 2.5},          {"5 GT/s", 5.0},
                      {"5.0 GT/s PCIe", 5.0},     {"8 GT/s", 8.0},
                      {"8.0 GT/s PCIe", 8.0},     {"16.0 GT/s PCIe\n", 16.0},
                      {"32.0 GT/s PCIe", 32.0},   {"Unknown speed", std::nullopt},
                      {"Unknown", std::nullopt},  {"", std::nullopt},
                      {"fast GT/s", std::nullopt}};
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_pcie_speed(r.text) == r.gts);
  }
}

TEST_CASE("parse_pcie_width and generation") {
  CHECK(parse_pcie_width("1") == 1u);
  CHECK(parse_pcie_width("16\n") == 16u);
  CHECK_FALSE(parse_pcie_width("0"));
  CHECK_FALSE(parse_pcie_width("wide"));
  CHECK(pcie_generation(2.5) == 1u);
  CHECK(pcie_generation(5) == 2u);
  CHECK(pcie_generation(16) == 4u);
  CHECK_FALSE(pcie_generation(3));
}

TEST_CASE("degraded links") {
  PcieLink l{.speed_gts = 2.5, .width = 1, .max_speed_gts = 5.0, .max_width = 1};
  CHECK(l.degraded());
  l.speed_gts = 5.0;
  CHECK_FALSE(l.degraded());
  l.width = 1;
  l.max_width = 4;
  CHECK(l.degraded());
  CHECK(PcieLink{}.empty());
  CHECK_FALSE(PcieLink{}.degraded());
}

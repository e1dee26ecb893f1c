#include <doctest/doctest.h>

#include "report/formatters.hpp"

using usbsat::topology::Bandwidth;
using usbsat::topology::ResourceKind;

TEST_CASE("fmt::formatter<Bandwidth>: three significant digits below 1000 MB/s, whole MB/s above") {
  CHECK(fmt::format("{}", Bandwidth::from_mbs(392)) == "392 MB/s");
  CHECK(fmt::format("{}", Bandwidth::from_mbs(40)) == "40 MB/s");
  CHECK(fmt::format("{}", Bandwidth::from_mbs(1.216)) == "1.22 MB/s");
  CHECK(fmt::format("{}", Bandwidth::from_mbs(3150.72)) == "3151 MB/s");
  CHECK(fmt::format("{}", Bandwidth::zero()) == "0 MB/s");
  CHECK(fmt::format("[{:>10}]", Bandwidth::from_mbs(40)) == "[   40 MB/s]");
  CHECK(fmt::format("{}", ResourceKind::PcieLink) == "pcie_link");
}

#include <doctest/doctest.h>

#include "load/swaps.hpp"

using namespace usbsat::load;

TEST_CASE("parse_swaps: the Filename column, escapes decoded") {
  constexpr std::string_view kSwaps =
      "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
      "/dev/sda3                               partition\t8388604\t\t0\t\t-2\n"
      "/swap\\040file                           file\t\t1048572\t\t0\t\t-3\n"
      "\n";
  CHECK(parse_swaps(kSwaps) == std::vector<std::string>{"/dev/sda3", "/swap file"});
  CHECK(parse_swaps("").empty());
  CHECK(parse_swaps("Filename Type Size Used Priority\n").empty());
}

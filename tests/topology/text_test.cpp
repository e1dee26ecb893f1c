// The shared text helpers: trim, strip_dev_prefix, path components, id formatting.
#include <doctest/doctest.h>

#include "topology/base/text.hpp"

using namespace usbsat::topology;

TEST_CASE("trim strips ASCII whitespace at both ends only") {
  struct Row {
    std::string_view in, out;
  };
  for (const auto& r :
       {Row{" SanDisk 3.2Gen1", "SanDisk 3.2Gen1"}, Row{"5000\n", "5000"}, Row{"\t x \r\n", "x"},
        Row{"a  b", "a  b"}, Row{"", ""}, Row{" \v\f ", ""}, Row{"ASMT    ", "ASMT"}}) {
    CAPTURE(r.in);
    CHECK(trim(r.in) == r.out);
  }
}

TEST_CASE("strip_dev_prefix gives the kernel name of a device node") {
  struct Row {
    std::string_view in, out;
  };
  for (const auto& r : {Row{"/dev/sda", "sda"}, Row{"sda", "sda"}, Row{"/dev/nvme0n1", "nvme0n1"},
                        Row{"/dev/mapper/root", "mapper/root"}, Row{"/devx/sda", "/devx/sda"}, Row{"", ""},
                        Row{"/dev/", ""}}) {
    CAPTURE(r.in);
    CHECK(strip_dev_prefix(r.in) == r.out);
  }
}

TEST_CASE("path_basename and path_dirname") {
  CHECK(path_basename("/sys/devices/x/sda") == "sda");
  CHECK(path_basename("sda") == "sda");
  CHECK(path_dirname("/sys/devices/x") == "/sys/devices");
  CHECK(path_dirname("/sys").empty());
  CHECK(path_dirname("sda").empty());
}

TEST_CASE("format_hex4 and format_vid_pid spell ids as lsusb does") {
  CHECK(format_hex4(0) == "0000");
  CHECK(format_hex4(0x0781) == "0781");
  CHECK(format_hex4(0xabcd) == "abcd");
  CHECK(format_vid_pid(0x174c, 0x55aa) == "174c:55aa");
}

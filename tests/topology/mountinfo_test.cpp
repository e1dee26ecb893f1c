#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>

#include "topology/base/mountinfo.hpp"

using namespace usbsat::topology;

TEST_CASE("parse_devnum: two decimal numbers around a colon, each fitting an unsigned") {
  struct Row {
    std::string_view in;
    std::optional<DevNum> want;
  };
  const Row rows[] = {
      {"8:16", DevNum{8, 16}},        {"8:16\n", DevNum{8, 16}},  // a sysfs `dev` file
      {" 253:0 ", DevNum{253, 0}},    {"4294967295:0", DevNum{4294967295u, 0}},
      {"4294967296:0", std::nullopt},  // does not fit
      {"-1:5", std::nullopt},          // a sign is not a number here
      {"+8:16", std::nullopt},        {"8", std::nullopt},
      {"8:", std::nullopt},           {":16", std::nullopt},
      {"8:16:1", std::nullopt},       {"0x8:16", std::nullopt},
      {"8 :16", std::nullopt},        {"", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.in);
    CHECK(parse_devnum(r.in) == r.want);
  }
}

TEST_CASE("unescape_octal: three octal digits after a backslash, anything else kept") {
  const std::pair<std::string_view, std::string_view> rows[] = {
      {"/media/my\\040disk", "/media/my disk"},
      {"a\\011b\\134", "a\tb\\"},
      {"trailing\\04", "trailing\\04"},  // two digits: kept as written
      {"\\080", "\\080"},                // 8 is not octal
      {"\\\\040", "\\ "},                // the first backslash is followed by no octal digits: kept
      {"", ""},
  };
  for (const auto& row : rows) {  // no structured binding: clang 14 cannot capture one (CAPTURE)
    CAPTURE(row.first);
    CHECK(unescape_octal(row.first) == row.second);
  }
}

TEST_CASE("parse_mountinfo: device, mount point, type and source of every well-formed line, in file order") {
  constexpr std::string_view text =
      "21 26 0:20 / /proc rw,relatime - proc proc rw\n"
      "26 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
      "30 26 8:17 / /mnt/my\\040backup rw,relatime shared:5 master:2 - ext4 /dev/sdb1 rw\n"
      "31 26 8:17 / /mnt/b rw - vfat /dev/sdb1 rw\n"
      "garbage line\n"
      "40 26 8:33 / /no/separator rw ext4 /dev/sdc1 rw\n"  // no " - "
      "41 26 8:33 / /short rw - ext4\n"                    // nothing after the type
      "45 26 8:33 / /five - ext4 /dev/sdc1 rw\n"           // no options field
      "42 26 x:1 / /bad/devnum rw - ext4 /dev/sdc1 rw\n"
      "43 26 0:45 / /srv rw - btrfs /dev/disk\\040one rw\n"
      "\n"
      "44\t26 253:0 / /data rw - xfs /dev/mapper/vg-data rw";  // a tab, and no final newline
  const auto m = parse_mountinfo(text);
  REQUIRE(m.size() == 6);
  CHECK(m[0].dev == DevNum{0, 20});
  CHECK(m[0].fstype == "proc");
  CHECK(m[1].dev == DevNum{8, 2});
  CHECK(m[1].mount_point == "/");
  CHECK(m[1].source == "/dev/sda2");
  CHECK(m[2].mount_point == "/mnt/my backup");  // optional fields skipped, escapes decoded
  CHECK(m[2].fstype == "ext4");
  CHECK(m[3].dev == m[2].dev);  // one device, two mount points, in file order
  CHECK(m[3].mount_point == "/mnt/b");
  CHECK(m[4].source == "/dev/disk one");
  CHECK(m[5].dev == DevNum{253, 0});
  CHECK(m[5].mount_point == "/data");
  CHECK(parse_mountinfo("").empty());
}

TEST_CASE(
    "first_malformed_mountinfo_line: a file that is not mountinfo is told apart from one without mounts") {
  struct Row {
    std::string_view text;
    std::optional<std::size_t> bad;
  };
  const Row rows[] = {
      {"", std::nullopt},
      {"\n\n", std::nullopt},
      {"26 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n", std::nullopt},
      {"26 1 8:2 / / rw - ext4 /dev/sda2 rw\n  \n27 1 8:3 / /b rw - ext4 /dev/sda3 rw", std::nullopt},
      {"garbage\n", 1u},
      {"26 1 8:2 / / rw - ext4 /dev/sda2 rw\nnot mountinfo at all\n", 2u},
      {"26 1 x:2 / / rw - ext4 /dev/sda2 rw\n", 1u},  // a bad device number
      {"\x7f\x45LF\x02\x01", 1u},                     // a binary file
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(first_malformed_mountinfo_line(r.text) == r.bad);
  }
  CHECK(parse_mountinfo_line("26 1 8:2 / / rw - ext4 /dev/sda2 rw")->source == "/dev/sda2");
  CHECK_FALSE(parse_mountinfo_line("41 26 8:33 / /short rw - ext4"));
}

#include <doctest/doctest.h>

#include "load/safety.hpp"

using namespace usbsat::load;

namespace {

constexpr std::string_view kMountinfo =
    "21 26 0:20 / /proc rw,relatime - proc proc rw\n"
    "26 1 8:2 / / rw,relatime - ext4 /dev/sda2 rw\n"
    "27 26 8:1 / /boot rw,relatime - vfat /dev/sda1 rw\n"
    "30 26 8:17 / /mnt/my\\040backup rw,relatime shared:5 - ext4 /dev/sdb1 rw\n"
    "31 26 0:45 / /srv rw,relatime - btrfs /dev/sdd rw\n"
    "garbage line\n"
    "32 26 253:0 / /data rw - xfs /dev/mapper/vg-data rw\n";

std::vector<ResolvedMount> mounts(std::optional<DevNum> sdd_source = std::nullopt) {
  std::vector<ResolvedMount> out;
  for (auto& m : parse_mountinfo(kMountinfo)) {
    std::optional<DevNum> src;
    if (m.source == "/dev/sdd") src = sdd_source;
    out.push_back({m, src});
  }
  return out;
}

DeviceFacts disk(std::string name, DevNum dev, std::vector<DevNum> related = {}, std::vector<std::string> names = {}) {
  return {"/dev/" + name, dev, std::move(related), std::move(names), name};
}

WriteRequest req(const std::string& path, std::vector<std::string> allow, bool write = true) {
  return {write, true, path, std::move(allow)};
}

}  // namespace

TEST_CASE("parse_mountinfo reads device, mount point (unescaped), type and source") {
  const auto m = parse_mountinfo(kMountinfo);
  REQUIRE(m.size() == 6);
  CHECK(m[1].dev == DevNum{8, 2});
  CHECK(m[1].mount_point == "/");
  CHECK(m[3].mount_point == "/mnt/my backup");  // optional field "shared:5" skipped
  CHECK(m[3].fstype == "ext4");
  CHECK(m[3].source == "/dev/sdb1");
  CHECK(m[5].dev == DevNum{253, 0});
}

TEST_CASE("reading never needs permission, writing needs --write") {
  const auto f = disk("sdc", {8, 32});
  CHECK_FALSE(decide_write(req("/dev/sdc", {"/dev/sdc"}, false), &f, mounts()).allowed);
  CHECK(decide_write({true, false, "/tmp/file", {}}, nullptr, mounts()).allowed);  // regular file
}

TEST_CASE("block devices need --allow-write naming exactly that device") {
  const auto f = disk("sdc", {8, 32});
  CHECK_FALSE(decide_write(req("/dev/sdc", {}), &f, mounts()).allowed);
  const auto wrong = decide_write(req("/dev/sdc", {"/dev/sdd", "/dev/sdc1"}), &f, mounts());
  CHECK_FALSE(wrong.allowed);
  CHECK(wrong.reason.find("--allow-write /dev/sdc") != std::string::npos);
  CHECK(decide_write(req("/dev/sdc", {"/dev/sdd", "/dev/sdc"}), &f, mounts()).allowed);
  CHECK_FALSE(decide_write(req("/dev/sdc", {"/dev/sdc"}), nullptr, mounts()).allowed);
}

TEST_CASE("a mounted partition refuses the whole disk") {
  const auto f = disk("sdb", {8, 16}, {{8, 17}}, {"sdb1"});
  const auto d = decide_write(req("/dev/sdb", {"/dev/sdb"}), &f, mounts());
  CHECK_FALSE(d.allowed);
  CHECK(d.reason.find("sdb1 on /mnt/my backup") != std::string::npos);
}

TEST_CASE("the system disk is refused as such") {
  const auto f = disk("sda", {8, 0}, {{8, 1}, {8, 2}}, {"sda1", "sda2"});
  const auto d = decide_write(req("/dev/sda", {"/dev/sda"}), &f, mounts());
  CHECK_FALSE(d.allowed);
  CHECK(d.reason.find("system filesystem /") != std::string::npos);
}

TEST_CASE("a holder (dm) that is mounted refuses the disk below it") {
  const auto f = disk("sde", {8, 64}, {{8, 65}, {253, 0}}, {"sde1", "dm-0"});
  const auto d = decide_write(req("/dev/sde", {"/dev/sde"}), &f, mounts());
  CHECK_FALSE(d.allowed);
  CHECK(d.reason.find("dm-0 on /data") != std::string::npos);
}

TEST_CASE("btrfs-style anonymous st_dev is matched through the source node") {
  const auto f = disk("sdd", {8, 48});
  CHECK(decide_write(req("/dev/sdd", {"/dev/sdd"}), &f, mounts()).allowed);  // source not resolved
  CHECK_FALSE(decide_write(req("/dev/sdd", {"/dev/sdd"}), &f, mounts(DevNum{8, 48})).allowed);
}

TEST_CASE("an unmounted disk named exactly may be written") {
  const auto f = disk("sdf", {8, 80}, {{8, 81}}, {"sdf1"});
  CHECK(decide_write(req("/dev/sdf", {"/dev/sdf"}), &f, mounts()).allowed);
}

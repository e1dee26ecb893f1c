#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

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
  for (auto& m : usbsat::topology::parse_mountinfo(kMountinfo)) {
    std::optional<DevNum> src;
    if (m.source == "/dev/sdd") src = sdd_source;
    out.push_back({m, src});
  }
  return out;
}

DeviceFacts disk(std::string name, DevNum dev, std::vector<DevNum> related = {},
                 std::vector<std::string> names = {}) {
  return {"/dev/" + name, dev, std::move(related), std::move(names), name};
}

WriteRequest req(const std::string& path, std::vector<std::string> allow, bool write = true) {
  return {write, true, path, std::move(allow), {}};
}

}  // namespace

TEST_CASE("reading never needs permission, writing needs --write") {
  const auto f = disk("sdc", {8, 32});
  CHECK_FALSE(decide_write(req("/dev/sdc", {"/dev/sdc"}, false), &f, mounts()).allowed);
  CHECK_FALSE(decide_write({false, false, "/tmp/file", {"/tmp/file"}, {}}, nullptr, mounts()).allowed);
  CHECK(decide_write({true, false, "/tmp/file", {"/tmp/file"}, {}}, nullptr, mounts())
            .allowed);  // regular file
}

TEST_CASE("files need --allow-write naming exactly that file, as block devices do") {
  const auto none = decide_write({true, false, "/tmp/file", {}, {}}, nullptr, mounts());
  CHECK_FALSE(none.allowed);
  CHECK(none.reason == "writing to file /tmp/file needs --allow-write /tmp/file naming exactly this file");
  CHECK_FALSE(decide_write({true, false, "/tmp/file", {"/tmp/other"}, {}}, nullptr, mounts()).allowed);
}

TEST_CASE("a file that backs a mounted or held loop device is refused, an idle loop device is not") {
  // loop3 (7:3) itself is mounted on /mnt/image; loop5's partition (8:17 here) is the one on /mnt/my backup.
  std::vector<ResolvedMount> m = mounts();
  m.push_back({{DevNum{7, 3}, "/mnt/image", "ext4", "/dev/loop3"}, DevNum{7, 3}});
  const BackedLoop mounted{disk("loop3", {7, 3}), ""};
  const auto d = decide_write({true, false, "/img/a.img", {"/img/a.img"}, {mounted}}, nullptr, m);
  CHECK_FALSE(d.allowed);
  CHECK(d.reason == "/img/a.img backs /dev/loop3, which is mounted: loop3 on /mnt/image; refusing to write");

  const BackedLoop part{disk("loop5", {7, 5}, {{8, 17}}, {"loop5p1"}),
                        ""};  // its partition is /mnt/my backup
  const auto p = decide_write({true, false, "/img/p.img", {"/img/p.img"}, {part}}, nullptr, m);
  CHECK_FALSE(p.allowed);
  CHECK(p.reason.find("loop5p1 on /mnt/my backup") != std::string::npos);

  const BackedLoop held{disk("loop6", {7, 6}), "is in use (exclusive open failed)"};
  const auto h = decide_write({true, false, "/img/h.img", {"/img/h.img"}, {held}}, nullptr, m);
  CHECK_FALSE(h.allowed);
  CHECK(h.reason ==
        "/img/h.img backs /dev/loop6, which is in use (exclusive open failed); refusing to write");

  const BackedLoop idle{disk("loop7", {7, 7}), ""};
  CHECK(decide_write({true, false, "/img/i.img", {"/img/i.img"}, {idle}}, nullptr, m).allowed);
  // Without --allow-write the file is refused before its loop devices are even considered.
  CHECK(decide_write({true, false, "/img/a.img", {}, {mounted}}, nullptr, m).reason.find("--allow-write") !=
        std::string::npos);
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

TEST_CASE("loops_backed_by finds loop devices by backing file name or by the same inode") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("usbsat-safety-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "class/block/loop0/loop");
  fs::create_directories(root / "class/block/loop1/loop");
  fs::create_directories(root / "class/block/sda");
  std::ofstream(root / "class/block/loop0/dev") << "7:0\n";
  std::ofstream(root / "class/block/loop1/dev") << "7:1\n";
  std::ofstream(root / "class/block/sda/dev") << "8:0\n";
  const fs::path image = root / "a.img", link = root / "b.img", other = root / "c.img";
  std::ofstream(image) << "x";
  std::ofstream(other) << "y";
  fs::create_hard_link(image, link);
  std::ofstream(root / "class/block/loop0/loop/backing_file") << image.string() << "\n";
  std::ofstream(root / "class/block/loop1/loop/backing_file") << other.string() << "\n";

  const auto by_name = loops_backed_by(image.string(), root.string());
  REQUIRE(by_name.size() == 1);
  CHECK(fs::path(by_name[0]).filename() == "loop0");
  const auto by_inode = loops_backed_by(link.string(), root.string());  // another name of the same file
  REQUIRE(by_inode.size() == 1);
  CHECK(fs::path(by_inode[0]).filename() == "loop0");
  CHECK(loops_backed_by((root / "none.img").string(), root.string()).empty());
  fs::remove_all(root);
}

TEST_CASE("decide_write names the member of the stack that is mounted or in use, and how it is reached") {
  std::vector<ResolvedMount> mounts{{{DevNum{7, 0}, "/mnt/img", "ext4", "/dev/loop0"}, DevNum{7, 0}}};
  DeviceFacts f{"/dev/loop2",
                {7, 2},
                {{7, 0}},
                {"loop0"},
                "loop2",
                {"loop2 → backing file /srv/fs.img → loop device loop0 over it"},
                {}};
  const WriteRequest req{true, true, "/dev/loop2", {"/dev/loop2"}, {}};
  const auto d = decide_write(req, &f, mounts);
  CHECK_FALSE(d.allowed);
  CHECK(d.reason ==
        "/dev/loop2 is mounted: loop0 on /mnt/img (loop2 → backing file /srv/fs.img → loop device loop0 over "
        "it); refusing to write");

  // Not mounted, but swapped on or held: the first such member is named.
  f.in_use = {{"loop0", "loop2 → backing file /srv/fs.img → loop device loop0 over it", "is used as swap"}};
  const auto s = decide_write(req, &f, {});
  CHECK_FALSE(s.allowed);
  CHECK(s.reason ==
        "/dev/loop2 shares its storage with loop0, which is used as swap (loop2 → backing file "
        "/srv/fs.img → loop device loop0 over it); refusing to write");
  f.in_use = {{"", "loop2", "is in use (exclusive open failed)"}};
  CHECK(decide_write(req, &f, {}).reason ==
        "/dev/loop2 is in use (exclusive open failed); refusing to write");
  f.in_use.clear();
  CHECK(decide_write(req, &f, {}).allowed);

  // A regular file: a swap file is refused, and so is a file whose loop device's stack is in use.
  WriteRequest file{true, false, "/srv/fs.img", {"/srv/fs.img"}, {}};
  file.swap = true;
  CHECK(decide_write(file, nullptr, {}).reason == "/srv/fs.img is used as swap; refusing to write");
  file.swap = false;
  BackedLoop loop{{"/dev/loop0",
                   {7, 0},
                   {},
                   {},
                   "loop0",
                   {},
                   {{"dm-1", "loop0 → dm-1 (built on it)", "is in use (exclusive open failed)"}}},
                  ""};
  file.backs = {loop};
  CHECK(decide_write(file, nullptr, {}).reason ==
        "/srv/fs.img backs /dev/loop0, which shares its storage with dm-1, which is in use (exclusive open "
        "failed) (loop0 → dm-1 (built on it)); refusing to write");
}

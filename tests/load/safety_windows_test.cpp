// Write safety on Windows, the pure half (load/windows_safety.hpp), and the --write/--allow-write rule both
// platforms share: table-tested in windows_test, so on Linux and under wine.
#include <doctest/doctest.h>

#include "load/safety.hpp"
#include "load/windows_safety.hpp"

using namespace usbsat::load;

TEST_CASE("windows safety: physical drive paths") {
  CHECK(parse_physical_drive("\\\\.\\PhysicalDrive0") == 0u);
  CHECK(parse_physical_drive("\\\\.\\PhysicalDrive12") == 12u);
  CHECK(parse_physical_drive("\\\\.\\physicaldrive3") == 3u);
  CHECK(parse_physical_drive("//./PHYSICALDRIVE1") == 1u);
  CHECK_FALSE(parse_physical_drive("\\\\.\\PhysicalDrive"));
  CHECK_FALSE(parse_physical_drive("\\\\.\\PhysicalDrive01"));
  CHECK_FALSE(parse_physical_drive("\\\\.\\PhysicalDrive1a"));
  CHECK_FALSE(parse_physical_drive("\\\\.\\PhysicalDrive-1"));
  CHECK_FALSE(parse_physical_drive("\\\\.\\C:"));
  CHECK_FALSE(parse_physical_drive("PhysicalDrive1"));
  CHECK_FALSE(parse_physical_drive("C:\\data\\PhysicalDrive1"));
  CHECK_FALSE(parse_physical_drive(""));
}

TEST_CASE("windows safety: the system disk, mounted volumes and a free disk") {
  WindowsDiskFacts f;
  f.system_disks = {0};
  f.system_root = "C:\\";
  f.volumes = {{"\\\\?\\Volume{1}\\", {"C:\\"}, {0}},
               {"\\\\?\\Volume{2}\\", {"E:\\", "C:\\mnt\\usb\\"}, {1}},
               {"\\\\?\\Volume{3}\\", {}, {2}},
               {"\\\\?\\Volume{4}\\", {"F:\\"}, {3, 4}}};  // spanned over disks 3 and 4
  f.disk = 0;
  auto d = decide_disk_write(f);
  CHECK_FALSE(d.allowed);
  CHECK(d.reason == "\\\\.\\PhysicalDrive0 holds the system volume C:\\; refusing to write");
  f.disk = 1;
  d = decide_disk_write(f);
  CHECK_FALSE(d.allowed);
  CHECK(d.reason == "\\\\.\\PhysicalDrive1 is mounted: a volume on it is E:\\; refusing to write");
  f.disk = 4;
  CHECK_FALSE(decide_disk_write(f).allowed);  // the second disk of a spanned volume
  f.disk = 2;
  CHECK(decide_disk_write(f).allowed);  // a volume without a mount point
  f.disk = 5;
  CHECK(decide_disk_write(f).allowed);  // no volume at all
  f.system_disks = {5, 6};              // the system volume mirrored over two disks
  CHECK_FALSE(decide_disk_write(f).allowed);
  f.system_disks.clear();  // the system disk could not be found: nothing is known to be safe
  d = decide_disk_write(f);
  CHECK_FALSE(d.allowed);
  CHECK(d.reason == "cannot find the disk of the system volume; refusing to write \\\\.\\PhysicalDrive5");
}

TEST_CASE("write permission: --write, then --allow-write naming exactly the target") {
  const std::vector<std::string> allow{"\\\\.\\PhysicalDrive2", "C:\\t\\image.bin"};
  auto r = refuse_without_permission(false, true, "\\\\.\\PhysicalDrive2", allow);
  REQUIRE(r);
  CHECK(r->reason == "writing needs --write (the default is read-only)");
  r = refuse_without_permission(true, true, "\\\\.\\PhysicalDrive3", allow);
  REQUIRE(r);
  CHECK(r->reason ==
        "writing to block device \\\\.\\PhysicalDrive3 needs --allow-write \\\\.\\PhysicalDrive3 naming "
        "exactly this device");
  r = refuse_without_permission(true, false, "C:\\t\\other.bin", allow);
  REQUIRE(r);
  CHECK(r->reason ==
        "writing to file C:\\t\\other.bin needs --allow-write C:\\t\\other.bin naming exactly this file");
  CHECK_FALSE(refuse_without_permission(true, true, "\\\\.\\PhysicalDrive2", allow));
  CHECK_FALSE(refuse_without_permission(true, false, "C:\\t\\image.bin", allow));
}

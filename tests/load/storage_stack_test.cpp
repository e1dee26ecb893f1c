#include <doctest/doctest.h>

#include <algorithm>

#include "load/storage_stack.hpp"

using namespace usbsat::load;

namespace {

BlockNode block(DevNum dev, std::vector<std::string> holders = {}, std::vector<std::string> slaves = {},
                std::string whole = {}) {
  BlockNode n;
  n.dev = dev;
  n.holders = std::move(holders);
  n.slaves = std::move(slaves);
  n.whole = std::move(whole);
  return n;
}

BlockNode loop_over(DevNum dev, FileId file, std::string path) {
  BlockNode n = block(dev);
  n.backing_file = file;
  n.backing_path = std::move(path);
  return n;
}

BlockNode loop_over_block(DevNum dev, DevNum lower, std::string path) {
  BlockNode n = block(dev);
  n.backing_block = lower;
  n.backing_path = std::move(path);
  return n;
}

std::vector<std::string> names(const std::vector<StackMember>& ms) {
  std::vector<std::string> out;
  for (const auto& m : ms) out.push_back(m.name);
  return out;
}

bool has(const std::vector<StackMember>& ms, const std::string& name) {
  return std::any_of(ms.begin(), ms.end(), [&](const auto& m) { return m.name == name; });
}

const StackMember& get(const std::vector<StackMember>& ms, const std::string& name) {
  return *std::find_if(ms.begin(), ms.end(), [&](const auto& m) { return m.name == name; });
}

const FileId kImage{{8, 2}, 1234};  // /srv/fs.img on sda2
const FileId kOther{{8, 2}, 99};    // /srv/other.img

// The system: sda (sda1, sda2 = /), an image fs.img mounted through loop0 and attached again as loop2, loop1
// over another image, sdb with sdb1 under dm-0 (linear) and sdb2 under md0 with sdc1.
StackView system_view() {
  StackView v;
  v.blocks["sda"] = block({8, 0});
  v.blocks["sda1"] = block({8, 1}, {}, {}, "sda");
  v.blocks["sda2"] = block({8, 2}, {}, {}, "sda");
  v.blocks["loop0"] = loop_over({7, 0}, kImage, "/srv/fs.img");
  v.blocks["loop1"] = loop_over({7, 1}, kOther, "/srv/other.img");
  v.blocks["loop2"] = loop_over({7, 2}, kImage, "/srv/fs.img");
  v.blocks["sdb"] = block({8, 16});
  v.blocks["sdb1"] = block({8, 17}, {"dm-0"}, {}, "sdb");
  v.blocks["sdb2"] = block({8, 18}, {"md0"}, {}, "sdb");
  v.blocks["sdc"] = block({8, 32});
  v.blocks["sdc1"] = block({8, 33}, {"md0"}, {}, "sdc");
  v.blocks["dm-0"] = block({253, 0}, {}, {"sdb1"});
  v.blocks["md0"] = block({9, 0}, {}, {"sdb2", "sdc1"});
  return v;
}

}  // namespace

TEST_CASE("two loop devices over one image: each reaches the other through the file") {
  const auto c = stack_closure(system_view(), "loop2");
  CHECK(names(c) == std::vector<std::string>{"loop2", "/srv/fs.img", "loop0"});
  CHECK(c[0].chain == "loop2");
  CHECK(get(c, "/srv/fs.img").below);
  CHECK(get(c, "/srv/fs.img").file == kImage);
  CHECK(get(c, "loop0").chain == "loop2 → backing file /srv/fs.img → loop device loop0 over it");
  CHECK_FALSE(has(c, "loop1"));  // another image
  CHECK_FALSE(has(c, "sda2"));   // the filesystem the image lives on is not written through loop2
}

TEST_CASE("loop over loop: the lower loop device, its file and its siblings") {
  StackView v = system_view();
  v.blocks["loop3"] = loop_over_block({7, 3}, {7, 0}, "/dev/loop0");
  const auto c = stack_closure(v, "loop3");
  CHECK(names(c) == std::vector<std::string>{"loop3", "loop0", "/srv/fs.img", "loop2"});
  CHECK(get(c, "loop0").chain == "loop3 → backing device loop0");
  // And upwards: writing loop0 reaches loop3 stacked on it.
  const auto up = stack_closure(v, "loop0");
  CHECK(get(up, "loop3").chain == "loop0 → loop device loop3 over it");
  CHECK_FALSE(get(up, "loop3").below);
}

TEST_CASE("a loop device over a file on a filesystem that lives on the device is built on it") {
  StackView v = system_view();
  // inner.img lives on the filesystem of loop0 (st_dev 7:0), attached as loop4 and loop5.
  const FileId inner{{7, 0}, 12};
  v.blocks["loop4"] = loop_over({7, 4}, inner, "/mnt/outer/inner.img");
  v.blocks["loop5"] = loop_over({7, 5}, inner, "/mnt/outer/inner.img");
  const auto c = stack_closure(v, "loop5");
  CHECK(names(c) == std::vector<std::string>{"loop5", "/mnt/outer/inner.img", "loop4"});
  // Writing the outer device writes under inner.img: loop4 and loop5 are built on loop0.
  const auto outer = stack_closure(v, "loop0");
  CHECK(has(outer, "loop4"));
  CHECK(get(outer, "loop4").chain == "loop0 → loop device loop4 over /mnt/outer/inner.img on it");
}

TEST_CASE("dm-linear over a partition: the disk, its other partitions and what is built on them") {
  const auto c = stack_closure(system_view(), "dm-0");
  CHECK(names(c) == std::vector<std::string>{"dm-0", "sdb1", "sdb", "sdb2", "md0"});
  CHECK(get(c, "sdb").chain == "dm-0 → sdb1 (which it is built on) → disk sdb (of the partition)");
  CHECK(get(c, "sdb1").below);
  CHECK(get(c, "sdb").below);
  CHECK_FALSE(get(c, "sdb2").below);
  // md0 is written through sdb2 (a partition of the same disk: partition tables may overlap); its other
  // member sdc1 is not written through dm-0.
  CHECK_FALSE(has(c, "sdc1"));
}

TEST_CASE("a partition reaches its disk and the disk's other partitions") {
  const auto c = stack_closure(system_view(), "sda1");
  // The images behind loop0..loop2 live on sda2's filesystem: those loop devices are built on it too.
  CHECK(names(c) == std::vector<std::string>{"sda1", "sda", "sda2", "loop0", "loop1", "loop2"});
  CHECK(get(c, "sda2").chain == "sda1 → disk sda (of the partition) → partition sda2");
  CHECK(get(c, "loop1").chain ==
        "sda1 → disk sda (of the partition) → partition sda2 → loop device loop1 over /srv/other.img on it");
  const auto whole = stack_closure(system_view(), "sda");
  CHECK(names(whole) == std::vector<std::string>{"sda", "sda1", "sda2", "loop0", "loop1", "loop2"});
}

TEST_CASE("an md member reaches the array and the array's other members") {
  const auto c = stack_closure(system_view(), "sdc1");
  CHECK(has(c, "md0"));
  CHECK(get(c, "md0").chain == "sdc1 → md0 (built on it)");
  CHECK(has(c, "sdc"));
  // Writing the array writes its members, and with them their disks and those disks' partitions.
  const auto md = stack_closure(system_view(), "md0");
  CHECK(names(md) == std::vector<std::string>{"md0", "sdb2", "sdc1", "sdb", "sdc", "sdb1", "dm-0"});
}

TEST_CASE("cycles and garbage in sysfs end the walk") {
  StackView v;
  v.blocks["dm-0"] = block({253, 0}, {"dm-1"}, {"dm-1", "ghost"});
  v.blocks["dm-1"] = block({253, 1}, {"dm-0"}, {"dm-0"});
  v.blocks["sdz1"] = block({8, 1}, {}, {}, "sdz1");                   // its own disk
  v.blocks["loop9"] = loop_over_block({7, 9}, {7, 9}, "/dev/loop9");  // backed by itself
  CHECK(names(stack_closure(v, "dm-0")) == std::vector<std::string>{"dm-0", "dm-1"});
  CHECK(names(stack_closure(v, "sdz1")) == std::vector<std::string>{"sdz1"});
  CHECK(names(stack_closure(v, "loop9")) == std::vector<std::string>{"loop9"});
  CHECK(names(stack_closure(v, "nothere")) == std::vector<std::string>{"nothere"});
  CHECK_FALSE(stack_closure(v, "nothere")[0].block);

  // A long chain of holders is cut at kMaxStackMembers.
  StackView chain;
  for (unsigned i = 0; i < 5000; ++i)
    chain.blocks["dm-" + std::to_string(i)] = block({253, i}, {"dm-" + std::to_string(i + 1)});
  CHECK(stack_closure(chain, "dm-0").size() == kMaxStackMembers);
}

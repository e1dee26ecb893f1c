#include "load/safety.hpp"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "load/swaps.hpp"
#include "load/unique_fd.hpp"

namespace usbsat::load {
namespace {

std::string read_first_line(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::string line;
  std::getline(f, line);
  return line;
}

bool is_system_mount(const std::string& mp) {
  return mp == "/" || mp == "/boot" || mp == "/boot/efi" || mp == "/usr";
}

}  // namespace

namespace {

/// " (loop2 → backing file /x.img → loop device loop0 over it)", or nothing when the chain says no more than
/// the member's name.
std::string chain_note(const std::string& chain, const std::string& name) {
  return chain.empty() || chain == name ? std::string() : " (" + chain + ")";
}

/// Why writing under `f` would write under a mounted filesystem ("holds the system filesystem / (sda2)",
/// "is mounted: sdb1 on /mnt"), nullopt when nothing of its stack is mounted. System filesystems are named
/// first: the clearest reason.
std::optional<std::string> mount_problem(const DeviceFacts& f, const std::string& label,
                                         const std::vector<ResolvedMount>& mounts) {
  auto describe = [&](const DevNum& d) -> std::string {
    if (d == f.dev) return f.name.empty() ? label : f.name;
    for (std::size_t i = 0; i < f.related.size(); ++i)
      if (f.related[i] == d && i < f.related_names.size()) return f.related_names[i];
    return std::to_string(d.major) + ":" + std::to_string(d.minor);
  };
  auto how = [&](const DevNum& d) -> std::string {
    for (std::size_t i = 0; i < f.related.size(); ++i)
      if (f.related[i] == d && i < f.related_chains.size())
        return chain_note(f.related_chains[i], f.related_names[i]);
    return {};
  };
  auto ours = [&](const DevNum& d) {
    return d == f.dev || std::find(f.related.begin(), f.related.end(), d) != f.related.end();
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& m : mounts) {
      const bool hit = ours(m.entry.dev) || (m.source_dev && ours(*m.source_dev));
      if (!hit) continue;
      const DevNum d = ours(m.entry.dev) ? m.entry.dev : *m.source_dev;
      if (pass == 0 && is_system_mount(m.entry.mount_point))
        return "holds the system filesystem " + m.entry.mount_point + " (" + describe(d) + ")" + how(d);
      if (pass == 1) return "is mounted: " + describe(d) + " on " + m.entry.mount_point + how(d);
    }
  }
  return std::nullopt;
}

/// "is in use (exclusive open failed)" for the device itself, "shares its storage with loop0, which is used
/// as swap (loop2 → …)" for another member of its stack.
std::string use_problem(const MemberUse& u) {
  if (u.member.empty()) return u.why;
  return "shares its storage with " + u.member + ", which " + u.why + chain_note(u.chain, u.member);
}

}  // namespace

SafetyDecision decide_write(const WriteRequest& req, const DeviceFacts* facts,
                            const std::vector<ResolvedMount>& mounts) {
  if (auto refused = refuse_without_permission(req.write, req.is_block, req.target, req.allow_write))
    return *refused;
  if (!req.is_block) {
    if (req.swap) return {false, req.target + " is used as swap; refusing to write"};
    for (const auto& loop : req.backs) {
      const std::string via = req.target + " backs " + loop.facts.path + ", which ";
      if (auto why = mount_problem(loop.facts, loop.facts.path, mounts))
        return {false, via + *why + "; refusing to write"};
      if (!loop.held.empty()) return {false, via + loop.held + "; refusing to write"};
      if (!loop.facts.in_use.empty())
        return {false, via + use_problem(loop.facts.in_use.front()) + "; refusing to write"};
    }
    return {true, {}};
  }
  if (!facts) return {false, "cannot inspect block device " + req.target + "; refusing to write"};
  if (auto why = mount_problem(*facts, req.target, mounts))
    return {false, req.target + " " + *why + "; refusing to write"};
  if (!facts->in_use.empty())
    return {false, req.target + " " + use_problem(facts->in_use.front()) + "; refusing to write"};
  return {true, {}};
}

namespace {

FileId file_id(const struct stat& st) {
  return FileId{DevNum{major(st.st_dev), minor(st.st_dev)}, static_cast<std::uint64_t>(st.st_ino)};
}

std::vector<std::string> list_names(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// What /proc/swaps swaps on: block devices by number, files by identity.
struct SwapAreas {
  std::vector<DevNum> blocks;
  std::vector<FileId> files;
};

SwapAreas read_swaps(const std::string& swaps_path) {
  std::ifstream f(swaps_path);
  std::stringstream ss;
  ss << f.rdbuf();
  SwapAreas out;
  for (const auto& name : parse_swaps(ss.str())) {
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0) continue;
    if (S_ISBLK(st.st_mode))
      out.blocks.push_back({major(st.st_rdev), minor(st.st_rdev)});
    else
      out.files.push_back(file_id(st));
  }
  return out;
}

/// nullopt when an exclusive open of `node` succeeds (nothing holds it); else why not.
std::optional<std::string> exclusive_open_problem(const std::string& node) {
  const UniqueFd fd(::open(node.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() >= 0) return std::nullopt;
  if (errno == EBUSY) return "is in use (exclusive open failed)";
  return std::string("cannot be checked (") + std::strerror(errno) + ")";
}

/// The backing file of loop device `node` as the kernel keeps it (LOOP_GET_STATUS64: st_dev and st_ino),
/// nullopt when it cannot be asked.
std::optional<FileId> loop_status_backing(const std::string& node) {
  const UniqueFd fd(::open(node.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  loop_info64 info{};
  if (fd.get() < 0 || ::ioctl(fd.get(), LOOP_GET_STATUS64, &info) != 0) return std::nullopt;
  const auto dev = static_cast<dev_t>(info.lo_device);
  return FileId{DevNum{major(dev), minor(dev)}, info.lo_inode};
}

}  // namespace

StackView read_stack_view(const std::string& sys_root) {
  namespace fs = std::filesystem;
  StackView view;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(sys_root) / "class/block", ec)) {
    const std::string name = e.path().filename().string();
    std::error_code cec;
    fs::path dir = fs::canonical(e.path(), cec);
    if (cec) dir = e.path();
    const auto dev = topology::parse_devnum(read_first_line(dir / "dev"));
    if (!dev) continue;
    BlockNode n;
    n.dev = *dev;
    n.holders = list_names(dir / "holders");
    n.slaves = list_names(dir / "slaves");
    if (fs::exists(dir / "partition", cec)) n.whole = dir.parent_path().filename().string();
    n.backing_path = read_first_line(dir / "loop/backing_file");
    // A deleted (unlinked) backing file's old path may name another file now: its identity comes from the
    // loop device itself then, as it does when the path cannot be resolved here.
    constexpr std::string_view kDeleted = " (deleted)";
    const bool deleted =
        n.backing_path.size() >= kDeleted.size() &&
        n.backing_path.compare(n.backing_path.size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0;
    struct stat st {};
    if (!n.backing_path.empty() && !deleted && ::stat(n.backing_path.c_str(), &st) == 0) {
      if (S_ISBLK(st.st_mode))
        n.backing_block = DevNum{major(st.st_rdev), minor(st.st_rdev)};
      else
        n.backing_file = file_id(st);
    } else if (!n.backing_path.empty()) {
      n.backing_file = loop_status_backing("/dev/" + name);
    }
    view.blocks.emplace(name, std::move(n));
  }
  return view;
}

std::optional<DeviceFacts> gather_device_facts(const std::string& path, const std::string& sys_root,
                                               const std::string& swaps_path, bool probe_exclusive) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  DeviceFacts f;
  f.path = canonical_path(path);
  f.dev = {major(st.st_rdev), minor(st.st_rdev)};
  const StackView view = read_stack_view(sys_root);
  for (const auto& [name, node] : view.blocks)
    if (node.dev == f.dev) f.name = name;
  // No sysfs entry: only the device itself is known.
  const auto members = f.name.empty() ? std::vector<StackMember>{{f.path, f.dev, std::nullopt, f.path, false}}
                                      : stack_closure(view, f.name);
  for (std::size_t i = 1; i < members.size(); ++i) {
    if (!members[i].block) continue;
    f.related.push_back(*members[i].block);
    f.related_names.push_back(members[i].name);
    f.related_chains.push_back(members[i].chain);
  }

  // Held: an exclusive open fails. A member with holders is always held by them (they are members too and
  // checked themselves); a disk with partitions is held when one of them is, so it comes after them.
  const SwapAreas swaps = read_swaps(swaps_path);
  std::vector<MemberUse> disks_with_parts;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const auto& m = members[i];
    const std::string who = i == 0 ? std::string() : m.name;
    if ((m.block && std::find(swaps.blocks.begin(), swaps.blocks.end(), *m.block) != swaps.blocks.end()) ||
        (m.file && std::find(swaps.files.begin(), swaps.files.end(), *m.file) != swaps.files.end()))
      f.in_use.push_back({who, m.chain, "is used as swap"});
    if (!m.block) continue;
    const auto node = view.blocks.find(m.name);
    if (node != view.blocks.end() && !node->second.holders.empty()) continue;
    const bool has_parts = std::any_of(view.blocks.begin(), view.blocks.end(),
                                       [&](const auto& b) { return b.second.whole == m.name; });
    if (!probe_exclusive) continue;
    if (auto why = exclusive_open_problem(i == 0 ? f.path : "/dev/" + m.name))
      (has_parts ? disks_with_parts : f.in_use).push_back({who, m.chain, *why});
  }
  f.in_use.insert(f.in_use.end(), disks_with_parts.begin(), disks_with_parts.end());
  return f;
}

std::vector<std::string> loops_backed_by(const std::string& path, const std::string& sys_root) {
  struct stat want {};
  const bool have_id = ::stat(path.c_str(), &want) == 0;
  std::vector<std::string> out;
  for (const auto& [name, node] : read_stack_view(sys_root).blocks)
    if (!node.backing_path.empty() &&
        (node.backing_path == path || (have_id && node.backing_file == file_id(want))))
      out.push_back((std::filesystem::path(sys_root) / "class/block" / name).string());
  return out;
}

std::vector<BackedLoop> gather_backed_loops(const std::string& path, const std::string& sys_root,
                                            const std::string& swaps_path) {
  std::vector<BackedLoop> out;
  for (const auto& dir : loops_backed_by(path, sys_root)) {
    BackedLoop b;
    const std::string name = std::filesystem::path(dir).filename().string();
    const std::string node = "/dev/" + name;
    if (auto f = gather_device_facts(node, sys_root, swaps_path))
      b.facts = std::move(*f);
    else  // the node is missing: nothing can be checked, which counts as held
      b.held = "cannot be checked (no device node " + node + ")";
    b.facts.path = node;
    if (b.facts.name.empty()) b.facts.name = name;
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<ResolvedMount> read_mounts(const std::string& mountinfo_path) {
  std::ifstream f(mountinfo_path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::vector<ResolvedMount> out;
  for (auto& m : topology::parse_mountinfo(ss.str())) {
    ResolvedMount r{std::move(m), std::nullopt};
    struct stat st {};
    if (r.entry.source.rfind("/dev/", 0) == 0 && ::stat(r.entry.source.c_str(), &st) == 0 &&
        S_ISBLK(st.st_mode))
      r.source_dev = DevNum{major(st.st_rdev), minor(st.st_rdev)};
    out.push_back(std::move(r));
  }
  return out;
}

std::string canonical_path(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (!r) return path;
  std::string s(r);
  std::free(r);
  return s;
}

SafetyDecision check_write(const std::string& target, bool write,
                           const std::vector<std::string>& allow_write) {
  const auto mounts = read_mounts();
  const auto facts = gather_device_facts(target);
  WriteRequest req{write, facts.has_value(), canonical_path(target), canonical_paths(allow_write), {}};
  if (write && !facts) {
    req.backs = gather_backed_loops(req.target);
    struct stat st {};
    if (::stat(req.target.c_str(), &st) == 0) {
      const auto swaps = read_swaps("/proc/swaps");
      req.swap = std::find(swaps.files.begin(), swaps.files.end(), file_id(st)) != swaps.files.end();
    }
  }
  return decide_write(req, facts ? &*facts : nullptr, mounts);
}

std::vector<std::string> stack_members(const std::string& target) {
  if (auto f = gather_device_facts(target, "/sys", "/proc/swaps", false)) return f->related_names;
  std::vector<std::string> out;
  for (const auto& dir : loops_backed_by(canonical_path(target))) {
    const std::string name = std::filesystem::path(dir).filename().string();
    out.push_back(name);
    if (auto f = gather_device_facts("/dev/" + name, "/sys", "/proc/swaps", false))
      out.insert(out.end(), f->related_names.begin(), f->related_names.end());
  }
  return out;
}

SafetyDecision recheck_write(const std::string& target, const std::vector<std::string>& allow_write,
                             const std::vector<std::string>& before) {
  for (const auto& m : stack_members(target))
    if (std::find(before.begin(), before.end(), m) == before.end())
      return {false, target + " is now held by " + m + ", which joined its storage stack during the run"};
  const auto facts = gather_device_facts(target, "/sys", "/proc/swaps", false);
  if (!facts) return check_write(target, true, allow_write);  // a file: the run holds none of its loops
  const WriteRequest req{true, true, canonical_path(target), canonical_paths(allow_write), {}};
  return decide_write(req, &*facts, read_mounts());
}

bool is_block_device(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

}  // namespace usbsat::load

#include "load/safety.hpp"

#include <fcntl.h>
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

/// Why writing under `f` would write under a mounted filesystem ("holds the system filesystem / (sda2)",
/// "is mounted: sdb1 on /mnt"), nullopt when nothing of it is mounted. System filesystems are named first:
/// the clearest reason.
std::optional<std::string> mount_problem(const DeviceFacts& f, const std::string& label,
                                         const std::vector<ResolvedMount>& mounts) {
  auto describe = [&](const DevNum& d) -> std::string {
    if (d == f.dev) return f.name.empty() ? label : f.name;
    for (std::size_t i = 0; i < f.related.size(); ++i)
      if (f.related[i] == d && i < f.related_names.size()) return f.related_names[i];
    return std::to_string(d.major) + ":" + std::to_string(d.minor);
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
        return "holds the system filesystem " + m.entry.mount_point + " (" + describe(d) + ")";
      if (pass == 1) return "is mounted: " + describe(d) + " on " + m.entry.mount_point;
    }
  }
  return std::nullopt;
}

}  // namespace

SafetyDecision decide_write(const WriteRequest& req, const DeviceFacts* facts,
                            const std::vector<ResolvedMount>& mounts) {
  if (auto refused = refuse_without_permission(req.write, req.is_block, req.target, req.allow_write))
    return *refused;
  if (!req.is_block) {
    for (const auto& loop : req.backs) {
      const std::string via = req.target + " backs " + loop.facts.path + ", which ";
      if (auto why = mount_problem(loop.facts, loop.facts.path, mounts))
        return {false, via + *why + "; refusing to write"};
      if (!loop.held.empty()) return {false, via + loop.held + "; refusing to write"};
    }
    return {true, {}};
  }
  if (!facts) return {false, "cannot inspect block device " + req.target + "; refusing to write"};
  if (auto why = mount_problem(*facts, req.target, mounts))
    return {false, req.target + " " + *why + "; refusing to write"};
  return {true, {}};
}

std::optional<DeviceFacts> gather_device_facts(const std::string& path, const std::string& sys_root) {
  namespace fs = std::filesystem;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  DeviceFacts f;
  f.path = canonical_path(path);
  f.dev = {major(st.st_rdev), minor(st.st_rdev)};
  const fs::path base =
      fs::path(sys_root) / "dev/block" / (std::to_string(f.dev.major) + ":" + std::to_string(f.dev.minor));
  std::error_code ec;
  const fs::path dir = fs::canonical(base, ec);
  if (ec) return f;  // no sysfs: only the device itself is known
  f.name = dir.filename().string();

  std::vector<fs::path> todo{dir};
  std::vector<fs::path> seen;
  auto add = [&](const fs::path& p) {
    const auto c = fs::canonical(p, ec);
    if (ec || std::find(seen.begin(), seen.end(), c) != seen.end()) return;
    seen.push_back(c);
    if (const auto d = topology::parse_devnum(read_first_line(c / "dev")); d && !(*d == f.dev)) {
      f.related.push_back(*d);
      f.related_names.push_back(c.filename().string());
    }
    todo.push_back(c);
  };
  while (!todo.empty()) {
    const fs::path cur = todo.back();
    todo.pop_back();
    for (const auto& e : fs::directory_iterator(cur, ec))
      if (fs::exists(e.path() / "partition")) add(e.path());
    for (const auto& e : fs::directory_iterator(cur / "holders", ec)) add(e.path());
    // Loop devices stacked on this one are not listed as holders; their backing_file names our node.
    for (const auto& loop : loops_backed_by("/dev/" + cur.filename().string(), sys_root)) add(loop);
  }
  return f;
}

std::vector<std::string> loops_backed_by(const std::string& path, const std::string& sys_root) {
  namespace fs = std::filesystem;
  struct stat want {};
  const bool have_id = ::stat(path.c_str(), &want) == 0;
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(sys_root) / "block", ec)) {
    const std::string backing = read_first_line(e.path() / "loop/backing_file");
    if (backing.empty()) continue;
    struct stat st {};
    const bool same_file =
        have_id && ::stat(backing.c_str(), &st) == 0 && st.st_dev == want.st_dev && st.st_ino == want.st_ino;
    if (backing == path || same_file) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<BackedLoop> gather_backed_loops(const std::string& path, const std::string& sys_root) {
  std::vector<BackedLoop> out;
  for (const auto& dir : loops_backed_by(path, sys_root)) {
    BackedLoop b;
    const std::string node = "/dev/" + std::filesystem::path(dir).filename().string();
    if (auto f = gather_device_facts(node, sys_root)) b.facts = std::move(*f);
    b.facts.path = node;
    if (b.facts.name.empty()) b.facts.name = std::filesystem::path(dir).filename().string();
    // Held (mounted, dm/md on top, another O_EXCL user) when an exclusive open fails with EBUSY. Any other
    // failure means we cannot tell, which counts as held too.
    const int fd = ::open(node.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0)
      ::close(fd);
    else if (errno == EBUSY)
      b.held = "is in use (exclusive open failed)";
    else
      b.held = std::string("cannot be checked (") + std::strerror(errno) + ")";
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
  if (write && !facts) req.backs = gather_backed_loops(req.target);
  return decide_write(req, facts ? &*facts : nullptr, mounts);
}

bool is_block_device(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

}  // namespace usbsat::load

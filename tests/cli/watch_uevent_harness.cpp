// Test harness for `usbsat watch`: a umockdev testbed (libumockdev) holding a copy of a fixture sysfs tree,
// with one USB device unplugged before usbsat starts; then the device is plugged in (its directories and
// links restored, umockdev_testbed_uevent "add" on its disk) and removed again ("remove"), each time with
// the output usbsat wrote in reply. usbsat runs under the umockdev preload with UMOCKDEV_DIR = the testbed,
// so its libudev monitor receives the testbed's uevents.
//
//   watch_uevent_harness FIXTURE_DIR USB_DEVICE_SYSPATH -- USBSAT watch [ARGS...]
//
// Prints "READY", "ADD <ms to first output>", the output lines, "REMOVE <ms>", the lines, "EXIT <code>" after
// SIGINT. The harness itself re-executes under the preload (libudev in umockdev_testbed_uevent needs it).
// Exit 0 when all of that happened, 1 otherwise, 77 when the umockdev preload cannot be found.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <umockdev.h>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string find_preload() {
  if (const char* p = std::getenv("UMOCKDEV_PRELOAD"); p && fs::exists(p)) return p;
  for (const char* d : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                        "/usr/local/lib"}) {
    const fs::path p = fs::path(d) / "libumockdev-preload.so.0";
    if (fs::exists(p)) return p.string();
  }
  return {};
}

/// Symlinks below `root` whose target is gone: removed, and returned (path, target) to be restored.
std::vector<std::pair<fs::path, fs::path>> drop_dangling(const fs::path& root) {
  std::vector<std::pair<fs::path, fs::path>> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    std::error_code ec;
    if (!it->is_symlink(ec) || fs::exists(it->path(), ec)) continue;
    out.emplace_back(it->path(), fs::read_symlink(it->path()));
  }
  for (const auto& [p, t] : out) fs::remove(p);
  return out;
}

/// The whole disks below a USB device directory ("…/block/sdc"), as testbed device paths ("/sys/…").
std::vector<std::string> disks_below(const fs::path& root, const fs::path& dev) {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root / dev.relative_path());
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_symlink()) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory() && it->path().parent_path().filename() == "block")
      out.push_back("/" + fs::relative(it->path(), root).string());
  }
  return out;
}

struct Child {
  pid_t pid = -1;
  int out = -1, err = -1;
};

Child spawn(char** argv, const std::string& root, const std::string& preload) {
  int o[2], e[2];
  if (pipe(o) || pipe(e)) std::exit(1);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(o[1], 1);
    dup2(e[1], 2);
    close(o[0]);
    close(e[0]);
    setenv("UMOCKDEV_DIR", root.c_str(), 1);
    setenv("LD_PRELOAD", preload.c_str(), 1);
    execv(argv[0], argv);
    std::perror("execv");
    _exit(127);
  }
  close(o[1]);
  close(e[1]);
  return {pid, o[0], e[0]};
}

/// Everything `fd` delivers until `quiet_ms` pass without data after the first byte, or `limit_ms` after
/// `start`. Sets `first_ms` to the time from `start` until the first byte (-1: none).
std::string read_burst(int fd, int limit_ms, int quiet_ms, long& first_ms,
                       Clock::time_point start = Clock::now()) {
  std::string got;
  first_ms = -1;
  while (true) {
    const long elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    if (elapsed >= limit_ms) break;
    pollfd p{fd, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(got.empty() ? limit_ms - elapsed : quiet_ms));
    if (r <= 0) {
      if (!got.empty()) break;
      continue;
    }
    char buf[4096];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    if (got.empty())
      first_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    got.append(buf, static_cast<std::size_t>(n));
  }
  return got;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || std::strcmp(argv[3], "--") != 0) {
    std::fprintf(stderr, "usage: %s FIXTURE_DIR USB_DEVICE_SYSPATH -- USBSAT watch [ARGS...]\n", argv[0]);
    return 2;
  }
  const std::string preload = find_preload();
  if (preload.empty()) {
    std::puts("SKIP: libumockdev-preload.so.0 not found");
    return 77;
  }
  // umockdev_testbed_uevent() builds the event with libudev, which only accepts /sys/... paths: the harness
  // runs under the preload too (re-executed with it), as umockdev's own tests run under umockdev-wrapper.
  const char* ld = std::getenv("LD_PRELOAD");
  if (!ld || !std::strstr(ld, "libumockdev-preload")) {
    setenv("LD_PRELOAD", preload.c_str(), 1);
    execv("/proc/self/exe", argv);
    std::perror("execv /proc/self/exe");
    return 1;
  }
  const fs::path fixture = argv[1], device = argv[2];

  UMockdevTestbed* tb = umockdev_testbed_new();
  gchar* root_c = umockdev_testbed_get_root_dir(tb);
  const fs::path root = root_c;
  g_free(root_c);
  fs::copy(
      fixture / "sys", root / "sys",
      fs::copy_options::recursive | fs::copy_options::copy_symlinks | fs::copy_options::overwrite_existing);
  const auto disks = disks_below(root, device);
  if (disks.empty()) {
    std::printf("FAIL: no disk below %s\n", device.c_str());
    return 1;
  }
  const fs::path live = root / device.relative_path(), stash = root / "unplugged";
  fs::rename(live, stash);
  auto links = drop_dangling(root / "sys");

  Child c = spawn(argv + 4, root.string(), preload);
  int rc = 0;
  // Ready when usbsat says it is waiting (stderr).
  std::string err;
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (err.find("waiting for") == std::string::npos && Clock::now() < deadline) {
    long first = 0;
    const auto s = read_burst(c.err, 1000, 50, first);
    err += s;
  }
  if (err.find("waiting for") == std::string::npos) {
    std::printf("FAIL: usbsat watch never said it is waiting; stderr:\n%s\n", err.c_str());
    kill(c.pid, SIGKILL);
    return 1;
  }
  std::puts("READY");

  // Plug in: the device's directory and links come back, then the uevent on each of its disks.
  fs::rename(stash, live);
  for (const auto& [p, t] : links) fs::create_directory_symlink(t, p);
  auto sent = Clock::now();
  for (const auto& d : disks) umockdev_testbed_uevent(tb, d.c_str(), "add");
  long ms = -1;
  std::string out = read_burst(c.out, 5000, 300, ms, sent);
  std::printf("ADD %ld\n%s", ms, out.c_str());
  if (out.empty()) rc = 1;

  // Unplug: the uevent first (the kernel sends it while the sysfs directory still exists), then the tree
  // goes.
  sent = Clock::now();
  for (const auto& d : disks) umockdev_testbed_uevent(tb, d.c_str(), "remove");
  fs::rename(live, stash);
  links = drop_dangling(root / "sys");
  out = read_burst(c.out, 5000, 300, ms, sent);
  std::printf("REMOVE %ld\n%s", ms, out.c_str());
  if (out.empty()) rc = 1;

  kill(c.pid, SIGINT);
  int status = 0;
  const auto stop_deadline = Clock::now() + std::chrono::seconds(5);
  pid_t w = 0;
  while ((w = waitpid(c.pid, &status, WNOHANG)) == 0 && Clock::now() < stop_deadline) usleep(20000);
  if (w == 0) {
    std::puts("FAIL: usbsat watch did not stop within 5 s of SIGINT");
    kill(c.pid, SIGKILL);
    waitpid(c.pid, &status, 0);
    rc = 1;
  }
  std::printf("EXIT %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  g_object_unref(tb);
  return rc;
}

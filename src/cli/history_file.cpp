// The history store's file: where, read, add under a lock, replace (history_file.hpp).
#include "src/cli/history_file.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "src/cli/atomic_file.hpp"
#include "src/cli/file_lock.hpp"
#include "src/cli/platform_text.hpp"
#include "topology/history/store_json.hpp"

namespace usbsat::cli {
namespace {

/// How long a writer waits for another one (a merge takes milliseconds).
constexpr int kLockTimeoutMs = 10'000;

std::optional<std::string> make_parent(const std::string& path) {
  const auto dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) return std::nullopt;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create {}: {}", dir.string(), ec.message());
  return std::nullopt;
}

}  // namespace

HistoryLocation history_location(const GlobalOptions& g) {
  std::optional<std::string> asked = g.history;
  std::string from = "--history";
  if (!asked)
    if (const char* env = std::getenv("USBSAT_HISTORY"); env && *env) asked = env, from = "USBSAT_HISTORY";
  if (asked) {
    if (*asked == "off") return {std::nullopt, from + " off"};
    return {*asked, ""};
  }
  const auto home = state_home();
  if (!home) return {std::nullopt, "no folder for per-user state (XDG_STATE_HOME, HOME)"};
  return {(*home / "usbsat" / "history.json").string(), ""};
}

LoadedHistory read_history_file(const std::string& path) {
  LoadedHistory out;
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) return out;
  out.exists = true;
  if (!std::filesystem::is_regular_file(st)) {
    out.problem = "not a regular file";
    return out;
  }
  if (std::filesystem::file_size(path, ec) > history::kMaxStoreBytes || ec) {
    out.problem = ec ? ec.message() : fmt::format("larger than {} MiB", history::kMaxStoreBytes >> 20);
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    out.problem = "cannot be read";
    return out;
  }
  auto parsed = history::parse_store_text(text.str());
  if (parsed.store)
    out.store = std::move(*parsed.store);
  else
    out.problem = parsed.error;
  return out;
}

std::optional<std::string> update_history_file(const std::string& path,
                                               const std::function<void(history::Store&)>& change) {
  if (auto e = make_parent(path)) return e;
  const FileLock lock(path + ".lock", kLockTimeoutMs);
  if (!lock.held()) return *lock.error();
  auto current = read_history_file(path);
  if (current.problem)
    return fmt::format(
        "{} is not a history this usbsat can read ({}); left as it is (`usbsat history forget "
        "all` starts a new one)",
        path, *current.problem);
  change(current.store);
  return write_file_atomically(path, history::write_store(current.store), NewFileAccess::kPrivate);
}

std::optional<std::string> replace_history_file(const std::string& path, const history::Store& s) {
  if (auto e = make_parent(path)) return e;
  const FileLock lock(path + ".lock", kLockTimeoutMs);
  if (!lock.held()) return *lock.error();
  return write_file_atomically(path, history::write_store(s), NewFileAccess::kPrivate);
}

}  // namespace usbsat::cli

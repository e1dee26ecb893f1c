// Mount points per device number, from mountinfo (ScanConfig::mountinfo_path).
#include "topology/base/mountinfo.hpp"
#include "topology/model/errors.hpp"
#include "topology/scan/scanner/scanner.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::topology::scanner {

void Scanner::load_mountinfo() {
  if (cfg_.mountinfo_path.empty()) return;
  if (auto text = src_.read_text_file(cfg_.mountinfo_path)) {
    if (const auto bad = first_malformed_mountinfo_line(*text)) malformed_mountinfo(*text, *bad);
    // The file's text passed the sanitiser, but mountinfo's octal escapes ("\033") decode to raw bytes again.
    for (auto& m : parse_mountinfo(*text)) mounts_[m.dev].push_back(escape_unprintable(m.mount_point));
    return;
  }
  // A file named by the caller that cannot be read is a mistake to stop at; the system's own missing
  // (no /proc in a sandbox) only leaves mount points unknown.
  auto problems = src_.take_read_problems();
  std::string why;
  for (const auto& p : problems)
    if (p.where == cfg_.mountinfo_path) why = ": " + p.message;
  if (cfg_.mountinfo_path != ScanConfig{}.mountinfo_path)
    throw ScanError("mountinfo file '" + cfg_.mountinfo_path + "' could not be read" + why);
  for (auto& p : problems) diags_.push_back(std::move(p));
  warn(cfg_.mountinfo_path, "could not be read; mount points are unknown");
}

void Scanner::malformed_mountinfo(std::string_view text, std::size_t line_number) {
  std::string_view line = text;
  for (std::size_t n = 1; n < line_number; ++n) line.remove_prefix(line.find('\n') + 1);
  line = line.substr(0, std::min(line.find('\n'), std::size_t{60}));
  const std::string where = "line " + std::to_string(line_number) + " ('" + escape_unprintable(line) + "')";
  // A file the caller named that is not mountinfo is a mistake to stop at, as an unreadable one is.
  if (cfg_.mountinfo_path != ScanConfig{}.mountinfo_path)
    throw ScanError("mountinfo file '" + cfg_.mountinfo_path +
                    "' is not in /proc/self/mountinfo's format: " + where + " is not a mount line");
  warn(cfg_.mountinfo_path, where + " is not a mount line; it is left out");
}

std::vector<std::string> Scanner::mounts_of(const std::optional<std::string>& devnum) const {
  const auto dev = devnum ? parse_devnum(*devnum) : std::nullopt;
  if (!dev) return {};
  auto it = mounts_.find(*dev);
  return it == mounts_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace usbsat::topology::scanner

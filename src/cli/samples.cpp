#include "src/cli/samples.hpp"

#include <system_error>

#include "src/cli/platform_text.hpp"

namespace usbsat::cli {

namespace fs = std::filesystem;

std::vector<fs::path> sample_dir_candidates(const std::optional<fs::path>& executable,
                                            const std::vector<fs::path>& configured) {
  std::vector<fs::path> out;
  if (executable && executable->has_parent_path())
    out.push_back(executable->parent_path().parent_path() / "share" / "usbsat" / "recordings");
  for (const auto& c : configured)
    if (!c.empty()) out.push_back(c);
  return out;
}

std::optional<fs::path> first_holding(const std::vector<fs::path>& candidates, const fs::path& file,
                                      const std::function<bool(const fs::path&)>& exists) {
  for (const auto& dir : candidates)
    if (exists(dir / file)) return (dir / file).lexically_normal();
  return std::nullopt;
}

std::optional<fs::path> find_sample_recording(const fs::path& name) {
  const auto candidates = sample_dir_candidates(executable_path(), configured_sample_dirs());
  return first_holding(candidates, name, [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
  });
}

}  // namespace usbsat::cli

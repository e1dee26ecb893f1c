// The doctor's facts outside the topology, read from /sys/module.
#include "src/cli/doctor_config.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "topology/text.hpp"

namespace usbsat::cli {
namespace {

/// A sysfs attribute's value without surrounding whitespace (topology::trim); nullopt when it cannot be read.
std::optional<std::string> read_attr(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return std::string(topology::trim(ss.str()));
}

}  // namespace

analysis::doctor::DoctorConfig system_doctor_config(unsigned max_sectors_target_kb,
                                                    const analysis::doctor::SharePredictor* predictor) {
  analysis::doctor::DoctorConfig config;
  config.usb_storage_quirks = read_attr("/sys/module/usb_storage/parameters/quirks");
  std::error_code ec;
  const bool uas_dir = std::filesystem::exists("/sys/module/uas", ec);
  if (!ec) config.uas_driver_loaded = uas_dir;
  config.max_sectors_target_kb = max_sectors_target_kb;
  config.predictor = predictor;
  return config;
}

}  // namespace usbsat::cli

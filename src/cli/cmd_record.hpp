#pragma once
/// usbsat record: everything the platform backend fetched during one scan, as one JSON document
/// (topology/recording/recording.hpp), for bug reports and for `usbsat --from FILE <command>` anywhere.
#include <optional>
#include <string>

#include "src/cli/command.hpp"
#include "src/cli/views.hpp"

namespace usbsat::cli {

struct RecordOptions {
  std::optional<std::string> output;  ///< -o FILE; stdout when absent
  bool keep_serials = false;          ///< --keep-serials: real serials (and host name) instead of pseudonyms
  ScanOptions scan;                   ///< --mountinfo, as for the views
};
void bind_record_options(CLI::App& sub, RecordOptions& o);

}  // namespace usbsat::cli

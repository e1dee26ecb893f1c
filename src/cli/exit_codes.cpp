#include "src/cli/exit_codes.hpp"

namespace usbsat {

int doctor_exit_code(std::optional<report::FindingSeverity> worst) {
  if (!worst || *worst == report::FindingSeverity::Info) return kExitOk;
  return *worst == report::FindingSeverity::Warning ? kExitWarnings : kExitProblems;
}

}  // namespace usbsat

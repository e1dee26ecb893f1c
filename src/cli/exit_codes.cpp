#include "src/cli/exit_codes.hpp"

namespace usbsat {

std::string_view exit_kind(int code) {
  switch (code) {
    case kExitUsage:
      return "usage";
    case kExitEnvironment:
      return "environment";
    case kExitRefused:
      return "refused";
    default:
      return "error";
  }
}

int doctor_exit_code(std::optional<report::FindingSeverity> worst) {
  if (!worst || *worst == report::FindingSeverity::Info) return kExitOk;
  return *worst == report::FindingSeverity::Warning ? kExitWarnings : kExitProblems;
}

}  // namespace usbsat

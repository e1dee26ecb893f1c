#pragma once
/// One row of the scan's bad-input tables (tests/topology/scan_test.cpp, scan_usb4_test.cpp): a system with
/// one class of bad data scanned, and the diagnostic that must name it checked.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "tests/support/fake_source.hpp"
#include "tests/support/fake_system.hpp"
#include "topology/scan/scan.hpp"

namespace usbsat::testing::fake {

/// `system` with `mutate` applied, scanned; checks that a diagnostic at `where` says `says`.
inline topology::ScanResult scan_bad_input(FakeSource system, const std::function<void(FakeSource&)>& mutate,
                                           const std::string& where, const std::string& says) {
  mutate(system);
  auto r = topology::scan(system, {.mountinfo_path = ""});
  CHECK_MESSAGE(has_diagnostic(r.diagnostics, where, says), diagnostics_text(r.diagnostics));
  return r;
}

}  // namespace usbsat::testing::fake

#pragma once
// What the doctor's tests share: the findings' accessors, a canned share predictor and the card reader
// machine. Included by tests/analysis/doctor/*_test.cpp and tests/cli/doctor_findings_test.cpp.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/analysis/doctor/doctor.hpp"
#include "src/analysis/doctor/share_predictor.hpp"
#include "tests/support/machines.hpp"

namespace usbsat::testing {

using analysis::doctor::diagnose;
using analysis::doctor::DoctorConfig;
using analysis::doctor::Finding;
using analysis::doctor::FindingSeverity;

/// The findings' ids, in order.
inline std::vector<std::string> ids(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.id);
  return out;
}

/// The one finding with `id` (fails the test when there is none or more than one).
inline const Finding& only(const std::vector<Finding>& fs, std::string_view id) {
  const Finding* hit = nullptr;
  for (const auto& f : fs)
    if (f.id == id) {
      REQUIRE_MESSAGE(hit == nullptr, "more than one ", id);
      hit = &f;
    }
  REQUIRE_MESSAGE(hit != nullptr, "no ", id);
  return *hit;
}

/// diagnose()'s findings with `id`, in the order it reports them.
inline std::vector<Finding> findings_of(const topology::Topology& t, std::string_view id) {
  std::vector<Finding> out;
  for (const auto& f : diagnose(t).findings)
    if (f.id == id) out.push_back(f);
  return out;
}

/// The evidence value for `key`, or "<missing KEY>".
inline std::string evidence(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.evidence)
    if (k == key) return v;
  return "<missing " + std::string(key) + ">";
}

inline bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

/// The worst severity of diagnose()'s findings: it sorts problems first, so the first finding's.
inline std::optional<FindingSeverity> worst(const std::vector<Finding>& fs) {
  if (fs.empty()) return std::nullopt;
  return fs.front().severity;
}

/// A bandwidth model stand-in: returns canned shares.
class FakePredictor : public analysis::doctor::SharePredictor {
 public:
  explicit FakePredictor(std::vector<analysis::doctor::DriveShare> s) : shares_(std::move(s)) {}
  std::vector<analysis::doctor::DriveShare> predict(const topology::Topology&) const override {
    return shares_;
  }

 private:
  std::vector<analysis::doctor::DriveShare> shares_;
};

/// A USB 2.0 four-slot card reader 1-6 on the xHCI's usb1-port6 with cards in slots 1 and 2 (sdb, sdc) and
/// empty slots 3 and 4 (sdd, sde: size 0); autosuspend on, so one per-device finding names its media.
inline Topology card_reader_two_cards() {
  Machine m;
  const auto h = intel_xhci(m);
  const Storage bot{.driver = "usb-storage", .uas_alt = false};
  const auto r = m.drive(Machine::port_of(h.usb2, 6),
                         {.vid = 0x058f,
                          .pid = 0x6377,
                          .product = "AU6375 Card Reader",
                          .speed = UsbSpeed::High,
                          .power_control = "auto"},
                         {.name = "sdb",
                          .size_bytes = 62333952ull * 512,
                          .max_sectors_kb = 1024,
                          .max_hw_sectors_kb = 32767,
                          .host = 6,
                          .lun = 0},
                         bot);
  const std::pair<const char*, std::uint64_t> slots[] = {{"sdc", 31166976ull * 512}, {"sdd", 0}, {"sde", 0}};
  unsigned lun = 1;
  for (const auto& [name, size] : slots)
    m.scsi_disk(r.interface, "usb-storage",
                {.name = name,
                 .size_bytes = size,
                 .max_sectors_kb = 1024,
                 .max_hw_sectors_kb = 32767,
                 .host = 6,
                 .lun = lun++});
  return m.finish();
}

}  // namespace usbsat::testing

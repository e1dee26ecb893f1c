// The store's values and the rules that keep it bounded and mergeable (store.hpp).
#include "topology/history/store.hpp"

#include <algorithm>

#include "load/job.hpp"

namespace usbsat::history {
namespace {

/// The newest measurement date of a drive ("" when it has none).
const std::string& last_date(const DriveRecord& d) {
  static const std::string none;
  return d.measurements.empty() ? none : d.measurements.back().date;
}

void keep_newest(std::vector<Measurement>& ms) {
  std::stable_sort(ms.begin(), ms.end(),
                   [](const Measurement& a, const Measurement& b) { return a.date < b.date; });
  if (ms.size() > kMaxMeasurementsPerDrive)
    ms.erase(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(ms.size() - kMaxMeasurementsPerDrive));
}

}  // namespace

std::string drive_key(const std::string& vid_pid, const std::string& serial, std::uint64_t size_bytes) {
  return vid_pid + ":" + serial + ":" + std::to_string(size_bytes);
}

void add_measurement(Store& s, const DriveRecord& d, const Measurement& m) {
  auto it =
      std::find_if(s.drives.begin(), s.drives.end(), [&](const DriveRecord& r) { return r.key == d.key; });
  if (it == s.drives.end()) {
    DriveRecord fresh = d;
    fresh.measurements.clear();
    s.drives.push_back(std::move(fresh));
    it = std::prev(s.drives.end());
  } else if (!d.model.empty()) {
    it->model = d.model;
  }
  if (std::find(it->measurements.begin(), it->measurements.end(), m) == it->measurements.end())
    it->measurements.push_back(m);
  keep_newest(it->measurements);
  while (s.drives.size() > kMaxDrives) {
    const auto oldest = std::min_element(s.drives.begin(), s.drives.end(), [](const auto& a, const auto& b) {
      return last_date(a) < last_date(b);
    });
    s.drives.erase(oldest);
  }
}

void set_resource(Store& s, const ResourceRecord& r) {
  auto it = std::find_if(s.resources.begin(), s.resources.end(),
                         [&](const ResourceRecord& x) { return x.id == r.id; });
  if (it == s.resources.end())
    s.resources.push_back(r);
  else if (r.date >= it->date)
    *it = r;
  while (s.resources.size() > kMaxResources) {
    const auto oldest = std::min_element(s.resources.begin(), s.resources.end(),
                                         [](const auto& a, const auto& b) { return a.date < b.date; });
    s.resources.erase(oldest);
  }
}

void merge(Store& into, const Store& from) {
  for (const auto& d : from.drives)
    for (const auto& m : d.measurements) add_measurement(into, d, m);
  for (const auto& r : from.resources) set_resource(into, r);
}

bool forget_drive(Store& s, const std::string& key) {
  return std::erase_if(s.drives, [&](const DriveRecord& d) { return d.key == key; }) > 0;
}

const DriveRecord* find_drive(const Store& s, const std::string& key) {
  for (const auto& d : s.drives)
    if (d.key == key) return &d;
  return nullptr;
}

const Measurement* latest_alone(const DriveRecord& d) {
  const Measurement* best = nullptr;
  for (const auto& m : d.measurements) {
    if (!m.alone() || (m.pattern != "read" && m.pattern != "write") || !(m.mbs > 0)) continue;
    if (!best || m.date > best->date || (m.date == best->date && m.pattern == "read")) best = &m;
  }
  return best;
}

std::string job_text(const Measurement& m) {
  std::string s = m.command + " " + m.pattern + " " + load::format_binary_size(m.block_size) + " QD" +
                  std::to_string(m.queue_depth);
  if (!m.alone()) s += ", " + std::to_string(m.group.size()) + " at once";
  return s;
}

std::string rate_text(const std::string& rate, const std::string& protocol) {
  if (protocol == "uas") return rate + " UAS";
  if (protocol == "bot") return rate + " BOT";
  return rate;
}

std::string link_text(const Measurement& m) {
  const std::string link = rate_text(m.rate, m.protocol);
  return m.connector.empty() ? link : m.connector + ", " + link;
}

std::map<std::string, topology::Calibration, std::less<>> calibrations(const Store& s) {
  std::map<std::string, topology::Calibration, std::less<>> out;
  for (const auto& r : s.resources) {
    if (!(r.measured_mbs > 0)) continue;
    topology::Basis b;
    b.kind = topology::BasisKind::Measured;
    b.what = "saturate plateau of " + std::to_string(r.drives.size()) + " drives";
    b.date = r.date;
    b.at_least = r.at_least;
    out[r.id] = topology::Calibration{r.identity, r.measured_mbs, std::move(b)};
  }
  return out;
}

}  // namespace usbsat::history

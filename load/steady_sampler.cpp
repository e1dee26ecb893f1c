#include "load/steady_sampler.hpp"

#include <algorithm>
#include <chrono>

namespace usbsat::load {

namespace {

/// MB/s between two marks; 0 when no time passed.
double rate(const LiveMark& a, const LiveMark& b) {
  const double dt = static_cast<double>(b.ns - a.ns) / 1e9;
  return dt > 0 ? static_cast<double>(b.bytes - a.bytes) / 1e6 / dt : 0.0;
}

}  // namespace

SteadySampler::SteadySampler(const SteadyRule& rule, std::size_t n, std::int64_t start_ns)
    : rule_(rule), start_ns_(start_ns), total_(rule) {
  series_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) series_.push_back({SteadyDetector(rule), {LiveMark{0, start_ns}}});
}

bool SteadySampler::add(std::int64_t now_ns, std::span<const LiveMark> marks) {
  if (settled_ || series_.empty()) return settled_;
  const auto at = std::chrono::nanoseconds(now_ns - start_ns_);
  double sum = 0;
  for (std::size_t i = 0; i < series_.size() && i < marks.size(); ++i) {
    auto& s = series_[i];
    // A worker that counted nothing since the last tick completed nothing up to now: the mark moves to
    // `now_ns` with no bytes (also when a count raced that tick: its bytes then fall in this tick).
    LiveMark m = marks[i];
    if (m.bytes == s.marks.back().bytes || m.ns <= s.marks.back().ns) m.ns = now_ns;
    s.marks.push_back(m);
    while (s.marks.size() > rule_.window + 1) s.marks.pop_front();
    const std::size_t from = s.marks.size() > rule_.span ? s.marks.size() - 1 - rule_.span : 0;
    const double r = rate(s.marks[from], s.marks.back());
    s.detector.add(at, r);
    sum += r;
  }
  total_.add(at, sum);
  if (total_.settled()) {
    settled_ = true;
    settled_ns_ = now_ns;
  }
  return settled_;
}

SteadyOutcome SteadySampler::outcome(std::int64_t now_ns) const {
  SteadyOutcome out;
  out.settled = settled_;
  out.after_ns = (settled_ ? settled_ns_ : now_ns) - start_ns_;
  for (const auto& s : series_) {
    const auto w = s.detector.window();
    out.targets.push_back({rate(s.marks.front(), s.marks.back()), w.spread, w.drift});
    out.total.mbs += out.targets.back().mbs;
  }
  const auto w = total_.window();
  out.total.spread = w.spread;
  out.total.drift = w.drift;
  return out;
}

}  // namespace usbsat::load

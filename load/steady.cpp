#include "load/steady.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace usbsat::load {

WindowStats window_stats(std::span<const double> samples, std::size_t window_ticks) {
  WindowStats w;
  if (samples.empty()) return w;
  const auto n = static_cast<double>(samples.size());
  double sum = 0;
  for (const double x : samples) sum += x;
  w.mean = sum / n;
  if (!(w.mean > 0)) {
    // A dead series (or one that went backwards) has no relative spread: it must not pass the rule.
    w.mean = 0;
    w.spread = w.drift = 1;
    return w;
  }
  // Least squares over x = 0 .. n-1: slope = sum((x - xm)(y - ym)) / sum((x - xm)^2).
  const double xm = (n - 1) / 2;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double dx = static_cast<double>(i) - xm;
    sxy += dx * (samples[i] - w.mean);
    sxx += dx * dx;
    w.spread = std::max(w.spread, std::fabs(samples[i] - w.mean) / w.mean);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0;  // per tick: samples are a tick apart
  w.drift = std::fabs(slope) * static_cast<double>(window_ticks) / w.mean;
  return w;
}

bool within(const WindowStats& w, const SteadyRule& rule) {
  return w.mean > 0 && w.spread <= rule.bound && w.drift <= rule.slope;
}

void SteadyDetector::add(std::chrono::nanoseconds at, double rate) {
  // A sample that began inside the ramp says nothing about the settled rate.
  const auto begins =
      at - std::chrono::duration_cast<std::chrono::nanoseconds>(rule_.tick) * static_cast<long>(rule_.span);
  if (begins < std::chrono::duration_cast<std::chrono::nanoseconds>(rule_.ramp)) return;
  samples_.push_back(rate);
  while (samples_.size() > rule_.samples()) samples_.pop_front();
}

WindowStats SteadyDetector::window() const {
  const std::vector<double> v(samples_.begin(), samples_.end());
  return window_stats(v, rule_.window);
}

bool SteadyDetector::settled() const {
  return rule_.window > 0 && samples_.size() >= rule_.samples() && within(window(), rule_);
}

std::optional<std::size_t> settle_after(std::span<const double> series, const SteadyRule& rule) {
  SteadyDetector d(rule);
  for (std::size_t i = 0; i < series.size(); ++i) {
    d.add(std::chrono::duration_cast<std::chrono::nanoseconds>(rule.tick * static_cast<long>(i + 1)),
          series[i]);
    if (d.settled()) return i + 1;
  }
  return std::nullopt;
}

SteadyChoice parse_steady(std::string_view s) {
  SteadyChoice out;
  if (s == "on") {
    out.rule = SteadyRule{};
    return out;
  }
  if (s == "off") return out;
  const bool percent = !s.empty() && s.back() == '%';
  const std::string_view digits = percent ? s.substr(0, s.size() - 1) : s;
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (percent) v /= 100;
  if (ec != std::errc{} || end != digits.data() + digits.size() || !(v >= 0.005 && v <= 0.5)) {
    out.error = "--steady " + std::string(s) +
                ": give on, off, or the bound a settled rate stays within (0.5% to 50%, e.g. 2%)";
    return out;
  }
  out.rule = SteadyRule{};
  out.rule->bound = out.rule->slope = v;
  return out;
}

}  // namespace usbsat::load

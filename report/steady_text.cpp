#include "report/steady_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace usbsat::report {

std::string steady_rule_text(const load::SteadyRule& rule) {
  return fmt::format("±{:g}% over {:g} s", std::round(rule.bound * 1000) / 10,
                     static_cast<double>(rule.window_time().count()) / 1000);
}

Json steady_rule_json(const load::SteadyRule& rule) {
  return json_object({{"bound", rule.bound},
                      {"slope", rule.slope},
                      {"window_s", static_cast<double>(rule.window_time().count()) / 1000},
                      {"tick_s", static_cast<double>(rule.tick.count()) / 1000}});
}

}  // namespace usbsat::report

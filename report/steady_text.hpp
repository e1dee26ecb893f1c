#pragma once
/// The settle rule (load/steady.hpp) as `load` and `saturate` show it: one phrase for the text reports and
/// one JSON object, so both commands say it the same way (G21).
#include <string>

#include "load/steady.hpp"
#include "report/json_common.hpp"

namespace usbsat::report {

/// "±2% over 1.5 s": the bound and the window of the rule.
std::string steady_rule_text(const load::SteadyRule& rule);

/// {"bound","slope","window_s","tick_s"}
Json steady_rule_json(const load::SteadyRule& rule);

}  // namespace usbsat::report

#pragma once
/// The values of `usbsat plan --demand`: one rate for every drive ("400M") or one drive's ("sdb=170M"),
/// parsed and checked before anything is planned. Every problem is a usage error with a message.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"

namespace usbsat::analysis::plan {

/// Demands a drive can sensibly ask for: 0.1 MB/s (the reports' resolution) to 100 GB/s (ten times the
/// fastest USB link). topology::parse_rate() takes any positive finite number; this is the plan's range.
inline constexpr topology::Bandwidth kMinDemand = topology::Bandwidth::from_mbs(0.1);
inline constexpr topology::Bandwidth kMaxDemand = topology::Bandwidth::from_mbs(100'000);

struct Demands {
  std::optional<topology::Bandwidth> common;                          ///< "400M": every drive
  std::map<std::string, topology::Bandwidth, std::less<>> per_drive;  ///< "sdb=170M" ("/dev/" stripped)
};

/// Parsed `--demand` values, or the first problem with them (`error` non-empty): a rate parse_rate() rejects
/// or outside [kMinDemand, kMaxDemand], "=170M" without a drive, a drive or the common demand given twice.
struct DemandsParse {
  Demands demands;
  std::string error;
};
DemandsParse parse_demands(std::span<const std::string> args);

/// The names per-drive demands may use: the connected drives of the question ("/dev/" stripped), else
/// "drive 1".."drive N" for N new drives.
std::vector<std::string> demand_names(std::span<const std::string> devices, unsigned new_drives);

/// The first per-drive demand that names none of `drives`, as a message; nullopt when all do.
std::optional<std::string> unknown_demand(const Demands& d, std::span<const std::string> drives);

}  // namespace usbsat::analysis::plan

#pragma once
/// What `load` and `saturate` remember (topology/history, the file: history_file.hpp): every drive of the
/// scanned topology they measured, alone and in each group (job, MB/s and IOPS, where, date, version), and
/// the capacities `saturate` measured on modelled resources (analysis/saturate/calibration.hpp). Targets that
/// are not USB drives of the scan (files, other disks) are not remembered. A store that cannot be written is
/// said in one line; the command's results print all the same.
#include <optional>
#include <string>
#include <vector>

#include "load/job.hpp"
#include "load/runner.hpp"
#include "src/analysis/saturate/calibration.hpp"
#include "src/analysis/saturate/measure.hpp"
#include "src/cli/command.hpp"
#include "topology/history/store.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::cli {

/// The USB whole disk of `t` that `path` opens (the same file once symlinks are followed: /dev/sdb,
/// /dev/disk/by-id/..., a test bed's link), or nullopt.
std::optional<topology::Vertex> usb_block_of_path(const topology::Topology& t, const std::string& path);

/// The store's additions for a `load` run over targets opened from `paths` (same order as the run's
/// targets), with `job`. `now`: the measurements' date.
history::Store load_additions(const topology::Topology& t, const std::vector<std::string>& paths,
                              const load::JobSpec& job, const load::RunResult& run, const std::string& now);

/// The store's additions for a `saturate` run: each drive's solo and group rates of every pass, and the
/// capacities measured (`capacities`, from the sequential pass).
history::Store saturate_additions(const topology::Topology& t, const analysis::saturate::SaturatePlan& plan,
                                  const analysis::saturate::SaturateSettings& settings,
                                  const analysis::saturate::SaturateMeasurement& m,
                                  const std::vector<analysis::saturate::MeasuredCapacity>& capacities,
                                  const std::string& now);

/// Merge `additions` into the store of `g` (history_location()): nullopt when it was remembered (or there was
/// nothing to remember, or the history is off), else the sentence why not.
std::optional<std::string> remember(const GlobalOptions& g, const history::Store& additions);

}  // namespace usbsat::cli

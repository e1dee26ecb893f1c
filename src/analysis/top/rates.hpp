#pragma once
/// `usbsat top`'s arithmetic, pure: two samples of the devices' stat counters and their timestamps give each
/// node's MB/s, utilisation of its capacity and whether it is the bottleneck now. The command reads the files
/// and the clock; tests inject both.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/analysis/top/block_stat.hpp"
#include "src/analysis/top/nodes.hpp"
#include "topology/results/top.hpp"

namespace usbsat::analysis::top {

/// The counters of every device at one moment.
struct Sample {
  double t_s = 0;                     ///< a monotonic timestamp, seconds
  std::map<std::string, BlockIo> io;  ///< device -> counters; absent: its stat could not be read
};

/// A sample from stat file texts (device -> the text of its stat file; nullopt: unreadable). Unparseable
/// texts leave the device out, as unreadable ones do.
Sample make_sample(double t_s, const std::map<std::string, std::optional<std::string>>& stat_texts);

/// A node's throughput over one interval: the one type (topology/results/top.hpp), rendered as it is.
using results::NodeRate;

/// At or above this fraction of its capacity a node is the bottleneck now.
inline constexpr double kBottleneckUtilisation = 0.9;

/// The rates between `prev` and `cur` (cur.t_s > prev.t_s), sorted by utilisation (highest first; nodes
/// without a capacity last), then MB/s, then id. A counter that went backwards (a device replaced under the
/// same name) counts as zero bytes.
std::vector<NodeRate> node_rates(const std::vector<TopNode>& nodes, const Sample& prev, const Sample& cur,
                                 double threshold = kBottleneckUtilisation);

}  // namespace usbsat::analysis::top

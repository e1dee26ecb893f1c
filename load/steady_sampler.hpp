#pragma once
/// The settle rule (steady.hpp) applied to one phase: at every tick the runner hands over each worker's mark
/// (bytes counted, and when), the sampler turns each target's marks into its rate over the rule's span, and
/// feeds the phase's aggregate — the sum of those rates — to the rule. The phase settles when its aggregate
/// does, as fio's steadystate does for a group of jobs (group_reporting): on the bed, four drives behind one
/// 400 MB/s link split it ±10% differently from one second to the next while their sum holds within ±1%,
/// and a verdict rests on the sum (efficiency) and on solo rates (phases of one drive). Each target's own
/// window figures are kept too. Pure: the runner reads the marks, tests make them up.
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "load/steady.hpp"
#include "load/worker.hpp"

namespace usbsat::load {

/// One target's figures over the last window (when the phase ended: settled, or its runtime ran out).
struct SteadyTarget {
  double mbs = 0;     ///< bytes between the window's first and last marks over their time, MB/s
  double spread = 0;  ///< WindowStats::spread
  double drift = 0;   ///< WindowStats::drift
};

/// How a phase run under the settle rule ended.
struct SteadyOutcome {
  bool settled = false;
  std::int64_t after_ns = 0;          ///< from the phase's start (ramp included) to settling, or to its end
  std::vector<SteadyTarget> targets;  ///< in the phase's target order
  SteadyTarget total;                 ///< the aggregate: what the rule judged
  double spread() const { return total.spread; }
  double drift() const { return total.drift; }
};

class SteadySampler {
 public:
  /// `n` targets whose phase started at `start_ns` (Clock time).
  SteadySampler(const SteadyRule& rule, std::size_t n, std::int64_t start_ns);

  /// The marks of every target at tick time `now_ns`. Returns true when every target has settled.
  bool add(std::int64_t now_ns, std::span<const LiveMark> marks);

  /// The outcome so far, as of `now_ns`.
  SteadyOutcome outcome(std::int64_t now_ns) const;

 private:
  struct Series {
    SteadyDetector detector;
    std::deque<LiveMark> marks;  ///< the marks of the last `window` ticks, and the one before
  };
  SteadyRule rule_;
  std::int64_t start_ns_;
  std::vector<Series> series_;
  SteadyDetector total_;
  bool settled_ = false;
  std::int64_t settled_ns_ = 0;
};

}  // namespace usbsat::load

#include "src/analysis/saturate/group_input.hpp"
#include "topology/words/describe.hpp"

#include "src/analysis/saturate/attribution.hpp"
#include "src/analysis/saturate/verdict_text.hpp"
#include "topology/base/text.hpp"

namespace usbsat::analysis::saturate {

using namespace model;
namespace {

/// The model's prediction for each phase: the phase's drives, demands = their solo means.
std::vector<PhasePrediction> predict_phases(const FlowProblem& base,
                                            const std::vector<PhaseMeasurement>& phases) {
  const auto solo = solo_means(phases);
  std::vector<PhasePrediction> out;
  for (const auto& p : phases) {
    std::vector<DemandSpec> specs;
    for (const auto& d : p.drives) {
      DemandSpec s{d.dev, std::nullopt};
      if (auto it = solo.find(d.dev); it != solo.end()) {
        s.demand = topology::Bandwidth::from_mbs(it->second);
        s.basis = topology::Basis{DemandSource::Measured, "saturate solo phase"};
      }
      specs.push_back(std::move(s));
    }
    out.push_back({p.n, predict_fair_share(subproblem(base, specs))});
  }
  return out;
}

}  // namespace

std::map<std::string, double> solo_means(const std::vector<PhaseMeasurement>& phases) {
  std::map<std::string, double> out;
  for (const auto& p : phases)
    if (p.n <= 1)
      for (const auto& d : p.drives)
        if (!d.mbs.empty()) out[d.dev] = mean(d.mbs);
  return out;
}

GroupInput topology_group_input(const topology::Topology& t, const model::DriveGroup& group,
                                std::vector<PhaseMeasurement> phases, const topology::CapacityModel& m) {
  GroupInput in;
  in.name = group.name;
  std::vector<topology::Vertex> blocks;
  std::vector<DemandSpec> specs;
  for (const auto& dev : group.drives) {
    const auto v = t.find_by_name(dev);
    in.drives.push_back({dev, v ? topology::drive_where(t, *v) : std::string{}});
    if (v) blocks.push_back(*v);
    specs.push_back({dev, std::nullopt});
  }
  in.candidates = common_resources(t, blocks, m);
  const auto lca = lowest_common_ancestor(t, blocks);
  in.common_ancestor = lca ? topology::describe_node(t, *lca) : group.name;
  // Solo-less drives fall back to their link ceiling inside subproblem(): the base problem carries it.
  const FlowProblem base = make_problem(t, specs, m);
  in.predictions = predict_phases(base, phases);
  in.phases = std::move(phases);
  return in;
}

GroupInput declared_group_input(const std::string& name, const std::vector<std::string>& devs,
                                std::optional<topology::Bandwidth> capacity,
                                std::vector<PhaseMeasurement> phases) {
  GroupInput in;
  in.name = name;
  std::vector<DemandSpec> specs;
  const auto solo = solo_means(phases);
  for (const auto& dev : devs) {
    std::string d{topology::strip_dev_prefix(dev)};
    DemandSpec s{d, std::nullopt};
    if (auto it = solo.find(d); it != solo.end()) {
      s.demand = topology::Bandwidth::from_mbs(it->second);
      s.basis = topology::Basis{DemandSource::Measured, "saturate solo phase"};
    }
    in.drives.push_back({d, ""});
    specs.push_back(std::move(s));
  }
  const FlowProblem base = declared_problem(name, specs, capacity);
  in.candidates = base.resources;
  in.common_ancestor = "group " + name;
  in.declared_group = true;
  in.predictions = predict_phases(base, phases);
  in.phases = std::move(phases);
  return in;
}

}  // namespace usbsat::analysis::saturate

// One placement evaluated with the max-min fair model, and the order in which `--prefer` compares two.
#include <algorithm>
#include <cmath>
#include <set>

#include "src/analysis/model/demand.hpp"
#include "src/analysis/plan/internal.hpp"

namespace usbsat::analysis::plan {

namespace detail {

using topology::NodeKind;
using topology::PortInfo;
using topology::Resource;
using topology::ResourceKind;
using topology::StorageProtocol;
using topology::Vertex;

namespace {

/// Rates compared at 0.1 MB/s: placements that differ by rounding noise are ties, and ties go on to the
/// next criterion (transitive, unlike a relative tolerance).
std::uint64_t q(Bandwidth b) {
  return (b.bytes_per_s + 50'000) / 100'000;
}

/// The objective: under --prefer uas first the number of drives on UAS, then the slowest drive, then the
/// total (at 0.1 MB/s). Nonzero when it tells `a` and `b` apart: > 0 when `a` is better.
int compare_objective(const Evaluation& a, const Evaluation& b, PlanPreference prefer) {
  auto cmp = [](auto x, auto y) { return x == y ? 0 : x > y ? 1 : -1; };
  if (prefer == PlanPreference::Uas && a.uas != b.uas) return cmp(a.uas, b.uas);
  if (q(a.min) != q(b.min)) return cmp(q(a.min), q(b.min));
  return cmp(q(a.total), q(b.total));
}

/// After the objective. Moves come first: a plan never asks to move a drive for a gain the model does not
/// predict (re-place mode; new drives never move). Then what the model cannot see: spread over controllers
/// (controllers have no modelled limit), headroom on shared links, root ports before hub ports, UAS,
/// one panel, and connector order for determinism.
bool better_after_objective(const Evaluation& a, const Evaluation& b) {
  if (a.moves != b.moves) return a.moves < b.moves;
  if (a.spread != b.spread) return a.spread < b.spread;  // spread over controllers: headroom the model lacks
  if (a.shared_util != b.shared_util) return a.shared_util < b.shared_util;  // headroom on shared links
  if (a.hubs != b.hubs) return a.hubs < b.hubs;  // a root port rather than a hub port
  if (a.uas != b.uas) return a.uas > b.uas;
  if (a.panels != b.panels) return a.panels < b.panels;  // convenience: one panel
  return a.slots < b.slots;                              // determinism: connector order
}

}  // namespace

const std::vector<Resource>& Scorer::upstream(Vertex port) {
  auto it = upstream_.find(port);
  if (it == upstream_.end()) it = upstream_.emplace(port, topology::upstream_resources(t_, port, m_)).first;
  return it->second;
}

FlowProblem Scorer::problem(std::span<const DriveModel> drives, const std::vector<SlotLink>& links) {
  FlowProblem p;
  std::map<std::string, std::size_t, std::less<>> index;
  for (std::size_t i = 0; i < drives.size(); ++i) {
    const auto& link = links[i];
    const Resource own = topology::drive_link_resource(t_, link.port, link.rate, link.protocol, m_);
    model::FlowDrive d{drives[i].name, {}, drives[i].basis, {}};
    if (drives[i].demand) {
      d.demand = *drives[i].demand;
    } else {
      d.demand = own.capacity.value_or(Bandwidth::from_mbs(1));
      d.basis = model::link_ceiling_basis(own);
    }
    std::vector<Resource> path{own};
    const auto& up = upstream(link.port);
    path.insert(path.end(), up.begin(), up.end());
    for (auto& r : path) {
      auto [it, fresh] = index.try_emplace(r.id, p.resources.size());
      if (fresh) p.resources.push_back(r);
      d.path.push_back(it->second);
    }
    p.drives.push_back(std::move(d));
  }
  return p;
}

Evaluation Scorer::evaluate(std::span<const DriveModel> drives, const std::vector<std::size_t>& slots) {
  ++evaluated_;
  Evaluation e;
  e.slots = slots;
  std::map<Vertex, unsigned> per_controller;
  std::set<std::string> panels;
  for (std::size_t i = 0; i < drives.size(); ++i) {
    const PlanSlot& s = slots_[slots[i]];
    const auto link = link_on(s, drives[i]);
    if (!link) return e;
    e.links.push_back(*link);
    if (link->protocol == StorageProtocol::Uas) ++e.uas;
    // A move is what a placement shows as one (Placement::moved): another connector than the drive's own.
    if (drives[i].current_connector && *drives[i].current_connector != s.connector) ++e.moves;
    if (s.panel) panels.insert(*s.panel);
    if (const auto hub = topology::parent(t_, link->port); hub && t_[*hub].kind == NodeKind::Hub) ++e.hubs;
    ++per_controller[t_.connectors()[s.connector].controller];
  }
  e.prediction = model::predict_fair_share(problem(drives, e.links));
  e.min = Bandwidth::from_bytes_per_s(UINT64_MAX);
  for (const auto& d : e.prediction.drives) e.min = std::min(e.min, d.predicted);
  e.total = e.prediction.aggregate;
  e.panels = static_cast<unsigned>(panels.size());
  for (const auto& [c, k] : per_controller) e.spread += k * k;
  for (const auto& r : e.prediction.resources)
    if (r.drives >= 2 && r.capacity && !r.capacity->is_zero())
      e.shared_util = std::max(
          e.shared_util, static_cast<unsigned>(std::llround(1000.0 * r.load.mbs() / r.capacity->mbs())));
  e.valid = true;
  return e;
}

std::optional<Headroom> headroom(const FlowProblem& p, const Prediction& pred) {
  for (const auto& d : pred.drives)
    if (d.basis.kind == model::DemandSource::LinkCeiling || d.bottleneck) return std::nullopt;
  std::optional<Headroom> out;
  for (std::size_t r = 0; r < pred.resources.size(); ++r) {
    const auto& load = pred.resources[r];
    if (!load.capacity || load.drives == 0) continue;
    const Bandwidth spare =
        Bandwidth::from_bytes_per_s((*load.capacity - load.load).bytes_per_s / load.drives);
    if (out && !(spare < out->per_drive)) continue;  // the first (nearest) of equal ones
    out = Headroom{load.resource, p.resources[r].label, *load.capacity, load.load, load.drives, spare};
  }
  return out;
}

bool improves_objective(const Evaluation& a, const Evaluation& b, PlanPreference prefer) {
  return compare_objective(a, b, prefer) > 0;
}

bool better(const Evaluation& a, const Evaluation& b, PlanPreference prefer) {
  if (const int c = compare_objective(a, b, prefer)) return c > 0;
  return better_after_objective(a, b);
}

}  // namespace detail
}  // namespace usbsat::analysis::plan

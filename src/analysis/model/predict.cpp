#include "src/analysis/model/predict.hpp"

#include "src/analysis/model/demand.hpp"
#include "topology/base/text.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

namespace usbsat::analysis::model {

using topology::Diagnostic;
using topology::Resource;
using topology::Severity;

FlowProblem make_problem(const topology::Topology& t, std::span<const DemandSpec> drives,
                         const topology::CapacityModel& m) {
  FlowProblem p;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const auto& spec : drives) {
    const std::string dev = std::string(topology::strip_dev_prefix(spec.dev));
    const auto v = t.find_by_name(dev);
    if (!v || t[*v].kind != topology::NodeKind::Block) {
      p.diagnostics.push_back(
          {Severity::Warning, dev, "not a block device of the scanned topology; left out"});
      continue;
    }
    const auto rs = topology::path_resources(t, *v, m);
    FlowDrive d{dev, {}, spec.basis, {}};
    if (spec.demand) {
      d.demand = *spec.demand;
    } else {
      const topology::Resource* link = nullptr;
      for (const auto& r : rs)
        if (r.kind == topology::ResourceKind::DriveLink) link = &r;
      if (!link || !link->capacity) {
        p.diagnostics.push_back(
            {Severity::Warning, dev, "no demand given and its link speed is unknown; left out"});
        continue;
      }
      d.demand = *link->capacity;
      d.basis = link_ceiling_basis(*link);
    }
    for (const auto& r : rs) {
      auto [it, fresh] = index.try_emplace(r.id, p.resources.size());
      if (fresh) p.resources.push_back(r);
      d.path.push_back(it->second);
    }
    p.drives.push_back(std::move(d));
  }
  return p;
}

FlowProblem declared_problem(const std::string& name, std::span<const DemandSpec> drives,
                             std::optional<Bandwidth> capacity) {
  FlowProblem p;
  if (capacity)
    p.resources.push_back(Resource{.id = "declared:" + name,
                                   .kind = topology::ResourceKind::Declared,
                                   .node = name,
                                   .capacity = capacity,
                                   .label = "declared shared link of group " + name});
  for (const auto& spec : drives) {
    const std::string dev = std::string(topology::strip_dev_prefix(spec.dev));
    if (!spec.demand) {
      p.diagnostics.push_back({Severity::Warning, dev, "no demand and no topology to derive one; left out"});
      continue;
    }
    FlowDrive d{dev, *spec.demand, spec.basis, {}};
    if (capacity) d.path.push_back(0);
    p.drives.push_back(std::move(d));
  }
  return p;
}

Prediction predict_fair_share(const FlowProblem& p) {
  // Work in doubles of bytes/s; the results are rounded back to whole bytes per second.
  const std::size_t nd = p.drives.size(), nr = p.resources.size();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> rate(nd, 0.0), load(nr, 0.0), cap(nr, kInf);
  for (std::size_t r = 0; r < nr; ++r)
    if (p.resources[r].capacity) cap[r] = static_cast<double>(p.resources[r].capacity->bytes_per_s);
  std::vector<bool> frozen(nd, false);
  std::vector<std::optional<std::size_t>> bottleneck(nd);
  // A residual below half a byte per second is full: capacities and demands are whole bytes per second.
  constexpr double kEps = 0.5;
  auto demand = [&](std::size_t i) { return static_cast<double>(p.drives[i].demand.bytes_per_s); };
  for (std::size_t i = 0; i < nd; ++i) frozen[i] = demand(i) <= kEps;

  while (std::find(frozen.begin(), frozen.end(), false) != frozen.end()) {
    // The largest equal increment every unfrozen drive can take before a demand is met or a resource fills.
    double inc = kInf;
    std::vector<unsigned> active(nr, 0);
    for (std::size_t i = 0; i < nd; ++i) {
      if (frozen[i]) continue;
      inc = std::min(inc, demand(i) - rate[i]);
      for (auto r : p.drives[i].path) ++active[r];
    }
    for (std::size_t r = 0; r < nr; ++r)
      if (active[r] && cap[r] < kInf) inc = std::min(inc, std::max(0.0, cap[r] - load[r]) / active[r]);
    for (std::size_t i = 0; i < nd; ++i) {
      if (frozen[i]) continue;
      rate[i] += inc;
      for (auto r : p.drives[i].path) load[r] += inc;
    }
    // Freeze: first the drives behind a full resource (named as their bottleneck), then the satisfied ones.
    bool progress = false;
    for (std::size_t i = 0; i < nd; ++i) {
      if (frozen[i]) continue;
      std::optional<std::size_t> best;
      for (auto r : p.drives[i].path) {
        if (cap[r] == kInf || cap[r] - load[r] > kEps) continue;
        if (!best || cap[r] < cap[*best]) best = r;  // narrowest; path order breaks ties: nearest first
      }
      if (best || demand(i) - rate[i] <= kEps) {
        frozen[i] = true;
        bottleneck[i] = best;
        progress = true;
      }
    }
    if (!progress) break;  // cannot happen with finite demands; guards against an infinite loop
  }

  Prediction out;
  double total = 0;
  for (std::size_t i = 0; i < nd; ++i) {
    DrivePrediction d;
    d.dev = p.drives[i].dev;
    d.demand = p.drives[i].demand;
    d.basis = p.drives[i].basis;
    d.predicted = Bandwidth::from_bytes_per_s(static_cast<std::uint64_t>(std::min(rate[i], demand(i)) + 0.5));
    if (bottleneck[i]) {
      const auto& r = p.resources[*bottleneck[i]];
      d.bottleneck = Bottleneck{r.id, r.node, r.kind, *r.capacity, r.label, r.capacity_basis};
    }
    total += static_cast<double>(d.predicted.bytes_per_s);
    out.drives.push_back(std::move(d));
  }
  // Drives crossing each resource, counted in one pass over the paths (counting per resource over every
  // path was quadratic: 10 % of `export` on the 10,000-device machine of tests/bench/scale_bench.py).
  std::vector<unsigned> crossing(nr, 0);
  for (const auto& d : p.drives)
    for (auto r : d.path) ++crossing[r];
  for (std::size_t r = 0; r < nr; ++r) {
    ResourceLoad l;
    l.resource = p.resources[r].id;
    l.load = Bandwidth::from_bytes_per_s(static_cast<std::uint64_t>(load[r] + 0.5));
    l.capacity = p.resources[r].capacity;
    l.drives = crossing[r];
    l.saturated = cap[r] < kInf && cap[r] - load[r] <= kEps;
    out.resources.push_back(std::move(l));
  }
  out.aggregate = Bandwidth::from_bytes_per_s(static_cast<std::uint64_t>(total));
  return out;
}

MaxFlowBound max_flow_bound(const FlowProblem& p) {
  // Network: S -> drive (its demand) -> in(r1) -> out(r1) (r1's capacity) -> in(r2) -> ... -> T.
  // Shared resources share their in/out vertices, so the resources of the tree form the cut candidates.
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  struct EdgeProps {
    long long capacity = 0;
    long long residual = 0;
    Traits::edge_descriptor reverse;
  };
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, EdgeProps>;
  G g;
  const std::size_t nd = p.drives.size(), nr = p.resources.size();
  const auto S = boost::add_vertex(g), T = boost::add_vertex(g);
  std::vector<G::vertex_descriptor> dv(nd), rin(nr), rout(nr);
  for (auto& v : dv) v = boost::add_vertex(g);
  for (std::size_t r = 0; r < nr; ++r) {
    rin[r] = boost::add_vertex(g);
    rout[r] = boost::add_vertex(g);
  }
  long long unlimited = 1;
  for (const auto& d : p.drives) unlimited += static_cast<long long>(d.demand.bytes_per_s);

  std::map<std::pair<std::size_t, std::size_t>, std::string> labels;  // forward edge -> cut label
  std::set<std::pair<std::size_t, std::size_t>> seen;
  auto connect = [&](G::vertex_descriptor u, G::vertex_descriptor v, long long c, std::string label) {
    if (!seen.insert({u, v}).second) return;
    auto e = boost::add_edge(u, v, g).first, r = boost::add_edge(v, u, g).first;
    g[e].capacity = c;
    g[e].reverse = r;
    g[r].capacity = 0;
    g[r].reverse = e;
    if (!label.empty()) labels[{u, v}] = std::move(label);
  };
  for (std::size_t r = 0; r < nr; ++r) {
    const auto& c = p.resources[r].capacity;
    connect(rin[r], rout[r], c ? static_cast<long long>(c->bytes_per_s) : unlimited,
            c ? p.resources[r].id : "");
  }
  for (std::size_t i = 0; i < nd; ++i) {
    const auto& d = p.drives[i];
    connect(S, dv[i], static_cast<long long>(d.demand.bytes_per_s), "demand:" + d.dev);
    auto from = dv[i];
    for (auto r : d.path) {
      connect(from, rin[r], unlimited, "");
      from = rout[r];
    }
    connect(from, T, unlimited, "");
  }

  const long long flow = boost::push_relabel_max_flow(
      g, S, T, boost::get(&EdgeProps::capacity, g), boost::get(&EdgeProps::residual, g),
      boost::get(&EdgeProps::reverse, g), boost::get(boost::vertex_index, g));

  // Minimum cut: vertices reachable from S in the residual graph form the source side.
  std::vector<bool> reach(boost::num_vertices(g), false);
  std::vector<G::vertex_descriptor> stack{S};
  reach[S] = true;
  while (!stack.empty()) {
    const auto u = stack.back();
    stack.pop_back();
    for (auto [b, e] = boost::out_edges(u, g); b != e; ++b) {
      const auto v = boost::target(*b, g);
      if (!reach[v] && g[*b].residual > 0) {
        reach[v] = true;
        stack.push_back(v);
      }
    }
  }
  MaxFlowBound out;
  out.max_flow = Bandwidth::from_bytes_per_s(static_cast<std::uint64_t>(flow));
  for (const auto& [edge, label] : labels)
    if (reach[edge.first] && !reach[edge.second]) out.min_cut.push_back(label);
  std::sort(out.min_cut.begin(), out.min_cut.end());
  return out;
}

}  // namespace usbsat::analysis::model

#include "report/describe.hpp"
#include "src/analysis/saturate/saturate.hpp"

#include "src/analysis/common/usb_drives.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "src/analysis/saturate/group_input.hpp"
#include "src/analysis/saturate/verdict_text.hpp"

namespace usbsat::analysis::saturate {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto p = s.find(sep);
    out.push_back(s.substr(0, p));
    if (p == std::string_view::npos) return out;
    s.remove_prefix(p + 1);
  }
}

/// Storage protocol of block device `v`: the storage interface above it.
topology::StorageProtocol protocol_of(const topology::Topology& t, topology::Vertex v) {
  for (auto a : topology::ancestors(t, v))
    if (const auto* itf = t[a].get_if<topology::InterfaceInfo>()) return itf->storage;
  return topology::StorageProtocol::None;
}

std::string level_label(unsigned n) {
  return n == 1 ? "alone" : std::to_string(n) + " at once";
}

}  // namespace


std::optional<GroupSpec> parse_group_spec(std::string_view s, std::string* error) {
  auto bad = [&](std::string why) -> std::optional<GroupSpec> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  const auto eq = s.find('=');
  GroupSpec g;
  if (eq != std::string_view::npos) g.name = std::string(trim(s.substr(0, eq)));
  if (g.name.empty()) return bad("a group is NAME=/dev/a,/dev/b,...[@CAP]: the NAME= is missing");
  std::string_view rest = s.substr(eq + 1);
  if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
    const auto cap = rest.substr(at + 1);
    g.capacity = topology::parse_rate(cap);
    const double bps = g.capacity ? static_cast<double>(g.capacity->bytes_per_s) : 0;
    if (bps < kMinGroupCapacity || bps > kMaxGroupCapacity)
      return bad("capacity '" + std::string(cap) +
                 "' is not a rate from 1K to 1000G bytes/s (e.g. 40M or 400MB/s; MB = 10^6 B)");
    rest = rest.substr(0, at);
  }
  for (auto p : split(rest, ',')) {
    p = trim(p);
    if (p.empty()) return bad("an empty drive path in the list");
    if (std::find(g.paths.begin(), g.paths.end(), p) != g.paths.end())
      return bad("'" + std::string(p) + "' is named twice");
    g.paths.emplace_back(p);
  }
  if (g.paths.size() < 2) return bad("a group needs at least two drives (one drive shares nothing)");
  return g;
}

std::optional<std::string> check_group_specs(std::span<const GroupSpec> specs) {
  for (std::size_t j = 1; j < specs.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (specs[i].name == specs[j].name) return "two groups are named '" + specs[j].name + "': give each its own name";
  return std::nullopt;
}

unsigned protocol_queue_depth(topology::StorageProtocol p) {
  return p == topology::StorageProtocol::Bot ? kBotQueueDepth : kQueuedQueueDepth;
}

std::vector<unsigned> phase_levels(std::size_t n) {
  std::vector<unsigned> out{1};
  for (std::size_t k : {std::size_t{2}, std::size_t{4}, n})
    if (k >= 2 && k <= n && std::find(out.begin(), out.end(), k) == out.end())
      out.push_back(static_cast<unsigned>(k));
  return out;
}

std::string dev_name(std::string_view path) {
  return std::string(path.starts_with("/dev/") ? path.substr(5) : path);
}

SaturatePlan plan_declared(std::span<const GroupSpec> specs, std::optional<unsigned> qd) {
  SaturatePlan plan;
  for (const auto& s : specs) {
    PlannedGroup g;
    g.name = s.name;
    g.node_kind = "declared";
    g.node_id = s.name;
    g.node_label = "group " + s.name;
    g.declared_capacity = s.capacity;
    for (const auto& p : s.paths) g.drives.push_back({dev_name(p), p, "", topology::StorageProtocol::None});
    g.qd = qd.value_or(kQueuedQueueDepth);
    g.qd_reason = qd ? "--qd" : "protocol unknown: deep queue";
    g.levels = phase_levels(g.drives.size());
    plan.groups.push_back(std::move(g));
  }
  return plan;
}

SaturatePlan plan_topology(const topology::Topology& t, std::span<const std::string> only,
                           std::optional<unsigned> qd, const topology::CapacityModel& m) {
  SaturatePlan plan;
  std::vector<topology::Vertex> blocks;
  for (const auto& d : common::usb_drives(t)) {
    const bool wanted = only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& o) {
                          return o == d.name || o == d.devnode;
                        });
    if (!wanted) continue;
    if (d.has_media)
      blocks.push_back(d.block);
    else
      plan.notes.push_back(d.name + ": no medium (an empty card-reader slot), not measured");
  }
  for (auto& g : model::shared_node_groups(t, blocks, m)) {
    PlannedGroup p;
    p.name = g.name;
    p.node_kind = std::string(topology::to_string(g.kind));
    p.node_id = g.name;
    p.node_label = report::describe_node(t, g.node);
    bool any_queued = false, all_bot = true;
    std::set<std::string> protocols;
    for (const auto& dev : g.drives) {
      const auto v = t.find_by_name(dev);
      PlannedDrive d{dev, "/dev/" + dev, "", topology::StorageProtocol::None};
      if (v) {
        d.path = t[*v].as<topology::BlockInfo>().devnode;
        d.where = report::drive_where(t, *v);
        d.protocol = protocol_of(t, *v);
      }
      protocols.insert(std::string(topology::to_string(d.protocol)));
      any_queued |= d.protocol != topology::StorageProtocol::Bot;
      all_bot &= d.protocol == topology::StorageProtocol::Bot;
      p.drives.push_back(std::move(d));
    }
    if (qd) {
      p.qd = *qd;
      p.qd_reason = "--qd";
    } else {
      p.qd = any_queued ? kQueuedQueueDepth : kBotQueueDepth;
      p.qd_reason = all_bot                                              ? "BOT: one command at a time"
                    : protocols.size() == 1 && protocols.contains("uas") ? "UAS: queued commands"
                    : protocols.contains("bot") ? "mixed BOT and queued drives: the deeper queue for all"
                                                : "protocol unknown: deep queue";
    }
    p.levels = phase_levels(p.drives.size());
    p.topology_group = std::move(g);
    plan.groups.push_back(std::move(p));
  }
  if (blocks.size() >= 2 && plan.groups.empty())
    plan.notes.push_back("no two of the USB drives share a hub, bus, controller or PCIe link");
  return plan;
}

std::size_t planned_steps(const SaturatePlan& plan, const SaturateSettings& settings) {
  std::size_t steps = 0;
  std::set<std::string> solo;
  for (const auto& g : plan.groups) {
    for (const auto& d : g.drives)
      if (solo.insert(d.path).second) steps += 1;
    steps += g.levels.size() - 1;
  }
  return steps * settings.passes.size() * std::max(1u, settings.repeat);
}

SaturateMeasurement measure(const SaturatePlan& plan, const std::map<std::string, load::RunTarget>& targets,
                            const SaturateSettings& settings, const PhaseRunner& run, std::stop_token stop,
                            const StepSnapshotFn& on_snapshot) {
  SaturateMeasurement out;
  out.groups.assign(plan.groups.size(), std::vector<GroupPassMeasurement>(settings.passes.size()));
  out.failures.resize(plan.groups.size());
  const unsigned repeat = std::max(1u, settings.repeat);
  const std::size_t steps = planned_steps(plan, settings);
  std::size_t step = 0;

  std::set<std::string> failed;                        // paths
  std::map<std::string, std::string> failure_message;  // path -> first error
  std::vector<std::map<std::string, std::vector<double>>> solo_cache(settings.passes.size());  // path -> MB/s

  // One run of `paths` at once; returns the per-drive MB/s, or nullopt when interrupted or a drive failed.
  auto run_once = [&](std::size_t gi, std::size_t pi, unsigned n, const std::vector<std::string>& paths,
                      unsigned qd, const std::string& what) -> std::optional<std::vector<double>> {
    const auto& pass = settings.passes[pi];
    std::vector<load::RunTarget> rts;
    for (const auto& p : paths) rts.push_back(targets.at(p));
    load::RunConfig cfg;
    cfg.job = settings.job;
    cfg.job.pattern = pass.pattern;
    cfg.job.block_size = pass.block_size;
    cfg.job.queue_depth = qd;
    cfg.engine = settings.engine;
    cfg.phases = {load::PhaseTargets{}};
    for (std::size_t i = 0; i < paths.size(); ++i) cfg.phases[0].push_back(i);
    const StepInfo info{plan.groups[gi].name, std::string(load::to_string(pass.pattern)), what, step++,
                        steps};
    load::SnapshotFn snap;
    if (on_snapshot) snap = [&](const load::Snapshot& s) { on_snapshot(info, s); };
    const auto res = run(rts, cfg, stop, snap);
    if (res.interrupted || stop.stop_requested() || res.phases.empty() || !res.phases.front().complete) {
      out.interrupted = true;
      return std::nullopt;
    }
    std::vector<double> mbs;
    bool ok = true;
    for (const auto& tr : res.phases.front().per_target) {
      const auto& path = paths.at(tr.target);
      if (tr.error) {
        ok = false;
        failed.insert(path);
        failure_message.emplace(path, *tr.error);
        out.failures[gi].push_back(
            {dev_name(path), std::string(load::to_string(pass.pattern)), n, *tr.error});
      }
      mbs.push_back(tr.stats.mbs());
    }
    if (!ok) return std::nullopt;
    return mbs;
  };

  for (std::size_t gi = 0; gi < plan.groups.size() && !out.interrupted; ++gi) {
    const auto& g = plan.groups[gi];
    for (std::size_t pi = 0; pi < settings.passes.size() && !out.interrupted; ++pi) {
      auto& gm = out.groups[gi][pi];
      gm.qd = settings.passes[pi].qd.value_or(g.qd);
      gm.complete = false;
      // A drive that failed in an earlier group's solo phase is reported here too.
      for (const auto& d : g.drives) {
        if (!targets.contains(d.path)) failed.insert(d.path);
        if (auto it = failure_message.find(d.path); it != failure_message.end()) {
          const bool listed = std::any_of(out.failures[gi].begin(), out.failures[gi].end(),
                                          [&](const auto& f) { return f.dev == d.dev; });
          if (!listed)
            out.failures[gi].push_back(
                {d.dev, std::string(load::to_string(settings.passes[pi].pattern)), 1, it->second});
        }
      }

      // 1. Solo baselines (each drive alone), reused across groups.
      PhaseMeasurement solo{1, {}};
      for (const auto& d : g.drives) {
        if (failed.contains(d.path)) continue;
        auto& cached = solo_cache[pi][d.path];
        while (cached.size() < repeat && !failed.contains(d.path)) {
          const auto r = run_once(gi, pi, 1, {d.path}, gm.qd, d.dev + " alone");
          if (out.interrupted) break;
          if (r) cached.push_back(r->front());
        }
        if (out.interrupted) break;
        if (!failed.contains(d.path)) solo.drives.push_back({d.dev, cached});
      }
      if (out.interrupted) {
        if (!solo.drives.empty()) gm.phases.push_back(std::move(solo));
        break;
      }
      gm.phases.push_back(std::move(solo));

      // 2. Concurrent phases: the first n healthy drives at once.
      std::set<unsigned> done;
      for (unsigned level : g.levels) {
        if (level < 2) continue;
        std::vector<const PlannedDrive*> healthy;
        for (const auto& d : g.drives)
          if (!failed.contains(d.path)) healthy.push_back(&d);
        const auto n = static_cast<unsigned>(std::min<std::size_t>(level, healthy.size()));
        if (n < 2 || done.contains(n)) continue;
        std::vector<std::string> paths;
        PhaseMeasurement pm{n, {}};
        for (unsigned i = 0; i < n; ++i) {
          paths.push_back(healthy[i]->path);
          pm.drives.push_back({healthy[i]->dev, {}});
        }
        for (unsigned r = 0; r < repeat; ++r) {
          const auto res = run_once(gi, pi, n, paths, gm.qd, level_label(n));
          if (!res) break;  // interrupted, or a drive failed: this phase is not used
          for (unsigned i = 0; i < n; ++i) pm.drives[i].mbs.push_back((*res)[i]);
        }
        if (out.interrupted) break;
        if (!pm.drives.front().mbs.empty() &&
            std::none_of(paths.begin(), paths.end(), [&](const auto& p) { return failed.contains(p); })) {
          done.insert(n);
          gm.phases.push_back(std::move(pm));
        }
      }
      gm.complete = !out.interrupted;
    }
  }
  return out;
}

namespace {

report::SaturatePass to_pass(const GroupVerdict& v, const PassSpec& pass, unsigned qd, bool complete) {
  report::SaturatePass p;
  p.pattern = std::string(load::to_string(pass.pattern));
  p.bs = pass.block_size;
  p.qd = qd;
  p.complete = complete;
  bool judged = false;
  for (const auto& ph : v.phases) {
    report::SaturatePhaseRow row;
    row.n = ph.n;
    for (const auto& d : ph.drives) row.per_drive.push_back({d.dev, d.mbs, d.predicted_mbs});
    row.aggregate_mbs = ph.aggregate_mbs;
    row.solo_sum_mbs = ph.solo_sum_mbs;
    row.efficiency = ph.efficiency;
    row.predicted_aggregate_mbs = ph.predicted_aggregate_mbs;
    row.spread = ph.spread;
    row.repeats = ph.repeats;
    if (ph.verdict) {
      row.verdict = std::string(to_string(*ph.verdict));
      judged = true;
    }
    p.phases.push_back(std::move(row));
  }
  p.tolerance = v.tolerance;
  p.confidence = std::string(to_string(v.confidence));
  p.notes = v.notes;
  if (!judged) {
    p.notes.push_back("no concurrent phase finished: no verdict");
    return p;
  }
  p.verdict = std::string(to_string(v.verdict));
  p.plateau_mbs = v.plateau_mbs;
  if (v.bottleneck) {
    const auto& b = *v.bottleneck;
    p.bottleneck = report::SaturateBottleneck{
        b.node, b.kind ? std::string(topology::to_string(*b.kind)) : "lowest_common_ancestor", b.capacity_mbs,
        b.label};
  }
  p.conclusion = conclusion(v);
  return p;
}

}  // namespace

report::SaturateReport build_report(const SaturatePlan& plan, const SaturateSettings& settings,
                                    const SaturateMeasurement* m, const topology::Topology* t,
                                    std::optional<double> tolerance) {
  report::SaturateReport r;
  r.engine = settings.engine;
  r.runtime_s = static_cast<double>(settings.job.runtime.count()) / 1000.0;
  r.ramp_s = static_cast<double>(settings.job.ramp.count()) / 1000.0;
  r.repeat = std::max(1u, settings.repeat);
  r.dry_run = m == nullptr;
  r.interrupted = m && m->interrupted;
  for (std::size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const auto& g = plan.groups[gi];
    report::SaturateGroup out;
    out.name = g.name;
    out.node_kind = g.node_kind;
    out.node_id = g.node_id;
    out.node_label = g.node_label;
    if (g.declared_capacity) out.declared_capacity_mbs = g.declared_capacity->mbs();
    if (g.topology_group) out.same_drives_as = g.topology_group->same_drives_as;
    for (const auto& d : g.drives) out.drives.push_back({d.dev, d.path, d.where});
    out.qd_reason = g.qd_reason;
    out.levels = g.levels;
    if (m) {
      out.failures = m->failures.at(gi);
      for (std::size_t pi = 0; pi < settings.passes.size(); ++pi) {
        const auto& gm = m->groups.at(gi).at(pi);
        if (gm.phases.empty()) continue;  // never reached
        GroupInput in;
        if (g.topology_group && t) {
          in = topology_group_input(*t, *g.topology_group, gm.phases);
        } else {
          std::vector<std::string> devs;
          for (const auto& d : g.drives) devs.push_back(d.dev);
          in = declared_group_input(g.name, devs, g.declared_capacity, gm.phases);
        }
        in.tolerance = tolerance;
        out.passes.push_back(to_pass(attribute(in), settings.passes[pi], gm.qd, gm.complete));
      }
    }
    r.groups.push_back(std::move(out));
  }
  return r;
}

}  // namespace usbsat::analysis::saturate

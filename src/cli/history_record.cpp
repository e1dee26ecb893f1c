// What `load` and `saturate` remember (history_record.hpp).
#include "src/cli/history_record.hpp"

#include <filesystem>
#include <system_error>

#include "src/analysis/common/usb_drives.hpp"
#include "src/cli/history_file.hpp"
#include "topology/history/identity.hpp"

namespace usbsat::cli {
namespace {

std::optional<std::filesystem::path> canonical(const std::string& p) {
  std::error_code ec;
  auto c = std::filesystem::canonical(p, ec);
  if (ec) return std::nullopt;
  return c;
}

/// A measurement of `block` by `command` with `pattern`, `bs`, `qd`, its place now.
history::Measurement measurement_of(const topology::Topology& t, topology::Vertex block, std::string command,
                                    load::Pattern pattern, std::uint32_t bs, unsigned qd, double mbs,
                                    const std::string& now) {
  const auto place = history::place_of(t, block);
  history::Measurement m;
  m.date = now;
  m.version = USBSAT_VERSION;
  m.command = std::move(command);
  m.pattern = std::string(load::to_string(pattern));
  m.block_size = bs;
  m.queue_depth = qd;
  m.mbs = mbs;
  m.iops = bs ? mbs * 1e6 / bs : 0;
  m.device = place.device;
  m.connector = place.connector;
  m.rate = place.rate;
  m.protocol = place.protocol;
  m.controller = place.controller;
  return m;
}

void add(history::Store& s, const topology::Topology& t, topology::Vertex block, history::Measurement m) {
  if (const auto id = history::drive_identity(t, block)) history::add_measurement(s, *id, m);
}

history::ResourceRecord resource_record(const topology::Topology& t,
                                        const analysis::saturate::MeasuredCapacity& c,
                                        const std::string& now) {
  history::ResourceRecord r;
  r.id = c.resource.id;
  r.identity = topology::resource_identity(t, *c.resource.vertex);
  r.kind = std::string(topology::to_string(c.resource.kind));
  r.label = c.resource.label;
  r.measured_mbs = c.mbs;
  if (c.resource.capacity) r.model_mbs = c.resource.capacity->mbs();
  r.at_least = c.at_least;
  r.date = now;
  r.version = USBSAT_VERSION;
  r.drives = c.drives;
  return r;
}

}  // namespace

std::optional<topology::Vertex> usb_block_of_path(const topology::Topology& t, const std::string& path) {
  const auto want = canonical(path);
  if (!want) return std::nullopt;
  for (const auto& d : analysis::common::usb_drives_with_media(t))
    if (const auto c = canonical(d.devnode); c && *c == *want) return d.block;
  return std::nullopt;
}

history::Store load_additions(const topology::Topology& t, const std::vector<std::string>& paths,
                              const load::JobSpec& job, const load::RunResult& run, const std::string& now) {
  history::Store s;
  std::vector<std::optional<topology::Vertex>> blocks;
  for (const auto& p : paths) blocks.push_back(usb_block_of_path(t, p));
  for (const auto& phase : run.phases) {
    if (!phase.complete) continue;
    std::vector<std::string> group;
    for (auto i : phase.targets)
      if (i < blocks.size() && blocks[i]) group.push_back(t[*blocks[i]].as<topology::BlockInfo>().name);
    for (const auto& r : phase.per_target) {
      if (r.error || r.target >= blocks.size() || !blocks[r.target] || r.stats.measured_ns <= 0) continue;
      auto m = measurement_of(t, *blocks[r.target], "load", job.pattern, job.block_size, job.queue_depth,
                              r.stats.mbs(), now);
      m.iops = r.stats.iops();
      if (phase.targets.size() > 1) m.group = group;
      add(s, t, *blocks[r.target], std::move(m));
    }
  }
  return s;
}

history::Store saturate_additions(const topology::Topology& t, const analysis::saturate::SaturatePlan& plan,
                                  const analysis::saturate::SaturateSettings& settings,
                                  const analysis::saturate::SaturateMeasurement& m,
                                  const std::vector<analysis::saturate::MeasuredCapacity>& capacities,
                                  const std::string& now) {
  history::Store s;
  for (std::size_t gi = 0; gi < plan.groups.size() && gi < m.groups.size(); ++gi) {
    const auto& g = plan.groups[gi];
    for (std::size_t pi = 0; pi < settings.passes.size() && pi < m.groups[gi].size(); ++pi) {
      const auto& pass = settings.passes[pi];
      for (const auto& phase : m.groups[gi][pi].phases) {
        std::vector<std::string> group;
        for (const auto& d : phase.drives) group.push_back(d.dev);
        for (const auto& d : phase.drives) {
          const auto v = t.find_by_name(d.dev);
          if (!v || d.mbs.empty()) continue;
          auto meas = measurement_of(t, *v, "saturate", pass.pattern, pass.block_size, g.qd,
                                     analysis::saturate::mean(d.mbs), now);
          if (phase.n > 1) meas.group = group;
          add(s, t, *v, std::move(meas));  // a solo shared by two groups is added once (same values)
        }
      }
    }
  }
  for (const auto& c : capacities) history::set_resource(s, resource_record(t, c, now));
  return s;
}

std::optional<std::string> remember(const GlobalOptions& g, const history::Store& additions) {
  if (additions.drives.empty() && additions.resources.empty()) return std::nullopt;
  const auto where = history_location(g);
  if (!where.path) return std::nullopt;
  return update_history_file(*where.path, [&](history::Store& s) { history::merge(s, additions); });
}

}  // namespace usbsat::cli

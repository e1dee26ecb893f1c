// A drive's demand and its basis: given > measured > estimated > link ceiling (demand.hpp).
#include "src/analysis/model/demand.hpp"

#include <fmt/format.h>

#include "topology/base/text.hpp"
#include "topology/capacity/drive_estimate.hpp"
#include "topology/history/identity.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::analysis::model {

using topology::Basis;
using topology::BasisKind;

namespace {

/// A measurement below this share of its link's ceiling was limited by the drive, not the link.
constexpr double kDriveLimited = 0.8;

std::optional<topology::UsbRate> rate_named(std::string_view s) {
  using topology::UsbRate;
  for (auto r : {UsbRate::Low, UsbRate::Full, UsbRate::High, UsbRate::Gen1, UsbRate::Gen1x2, UsbRate::Gen2,
                 UsbRate::Gen2x2, UsbRate::Usb4})
    if (topology::to_string(r) == s) return r;
  return std::nullopt;
}

topology::StorageProtocol protocol_named(std::string_view s) {
  using topology::StorageProtocol;
  for (auto p : {StorageProtocol::Bot, StorageProtocol::Uas, StorageProtocol::Other})
    if (topology::to_string(p) == s) return p;
  return StorageProtocol::None;
}

Basis measured_basis(const history::Measurement& m) {
  Basis b{BasisKind::Measured};
  b.what = history::job_text(m);
  b.date = m.date;
  b.where = history::link_text(m);
  return b;
}

/// The measured demand, or why the newest measurement does not describe the drive as it is now (`note`).
std::optional<DriveDemand> measured(const topology::Topology& t, topology::Vertex block,
                                    const history::Store& store, std::optional<Bandwidth> link,
                                    const topology::CapacityModel& m, std::string& note) {
  const auto id = history::drive_identity(t, block);
  const auto* rec = id ? history::find_drive(store, id->key) : nullptr;
  const auto* meas = rec ? history::latest_alone(*rec) : nullptr;
  if (!meas) return std::nullopt;
  DriveDemand d{Bandwidth::from_mbs(meas->mbs), measured_basis(*meas)};
  const auto now = history::place_of(t, block);
  if (meas->rate == now.rate && meas->protocol == now.protocol) return d;
  const std::string then = history::rate_text(meas->rate, meas->protocol),
                    here = history::rate_text(now.rate, now.protocol);
  const auto then_rate = rate_named(meas->rate);
  const auto then_ceiling =
      then_rate ? topology::usb_drive_capacity(*then_rate, protocol_named(meas->protocol), m) : std::nullopt;
  if (then_ceiling && meas->mbs < kDriveLimited * then_ceiling->mbs() && link && *d.demand <= *link) {
    d.basis.note =
        fmt::format("measured at {}, now {}: the drive, not its link, limited it then", then, here);
    return d;
  }
  note = fmt::format("measured {} at {}, now {}: not used", meas->date.substr(0, 10), then, here);
  return std::nullopt;
}

}  // namespace

Basis link_ceiling_basis(const topology::Resource& link) {
  // A link held to a published figure of its controller: that figure is the ceiling, and its source says why.
  if (link.capacity_basis && link.capacity_basis->kind == BasisKind::Published) return *link.capacity_basis;
  Basis b{BasisKind::LinkCeiling};
  // The label up to " link of" (a drive's link) or " link on" (the planner's link on a candidate port):
  // "USB 3.2 Gen 1 UAS link of 4-1 (...)" -> "USB 3.2 Gen 1 UAS link".
  auto at = link.label.find(" link of ");
  if (at == std::string::npos) at = link.label.find(" link on ");
  b.what = at == std::string::npos ? link.label : link.label.substr(0, at) + " link";
  return b;
}

DriveDemand drive_demand(const topology::Topology& t, topology::Vertex block, std::optional<Bandwidth> given,
                         const history::Store* store, const topology::CapacityModel& m) {
  if (given) return {given, Basis{BasisKind::Given, "--demand"}};
  std::optional<topology::Resource> link;
  for (auto& r : topology::path_resources(t, block, m))
    if (r.kind == topology::ResourceKind::DriveLink) link = std::move(r);
  const auto ceiling = link ? link->capacity : std::nullopt;
  std::string note;
  if (store)
    if (auto d = measured(t, block, *store, ceiling, m, note)) return *d;
  DriveDemand out{ceiling, link ? link_ceiling_basis(*link) : Basis{}};
  if (const auto e = topology::estimate_medium(topology::medium_facts(t, block))) {
    if (e->rate && (!ceiling || *e->rate < *ceiling)) {
      out = {e->rate, Basis{BasisKind::Estimated, e->what, e->source}};
    } else {
      const std::string why = e->rate ? fmt::format("{} streams ~{}, more than the link", e->what,
                                                    topology::mbs_text(e->rate->mbs()))
                                      : e->what + ": the link is the limit";
      out.basis.note = note.empty() ? why : note + "; " + why;
      return out;
    }
  }
  out.basis.note = note;
  return out;
}

std::vector<DemandSpec> demand_specs(const topology::Topology& t, std::span<const std::string> devs,
                                     const std::map<std::string, Bandwidth, std::less<>>& given,
                                     const history::Store* store, const topology::CapacityModel& m) {
  std::vector<DemandSpec> out;
  for (const auto& raw : devs) {
    const std::string dev(topology::strip_dev_prefix(raw));
    DemandSpec s{dev, std::nullopt, Basis{BasisKind::LinkCeiling}};
    const auto g = given.find(dev);
    const auto v = t.find_by_name(dev);
    if (v && t[*v].kind == topology::NodeKind::Block) {
      auto d = drive_demand(t, *v, g == given.end() ? std::nullopt : std::optional(g->second), store, m);
      s.demand = d.demand;
      s.basis = std::move(d.basis);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace usbsat::analysis::model

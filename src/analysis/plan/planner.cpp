#include "src/analysis/plan/planner.hpp"

#include "src/analysis/common/usb_drives.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numeric>
#include <set>

namespace usbsat::analysis::plan {

using namespace model;

using topology::Bandwidth;
using topology::Connector;
using topology::Diagnostic;
using topology::NodeKind;
using topology::PortInfo;
using topology::Resource;
using topology::ResourceKind;
using topology::Severity;
using topology::StorageProtocol;
using topology::Topology;
using topology::UsbRate;
using topology::UsbSpeed;
using topology::Vertex;

namespace {

std::string strip_dev(std::string_view dev) {
  if (dev.substr(0, 5) == "/dev/") dev.remove_prefix(5);
  return std::string(dev);
}

bool side_usable(const Topology& t, std::optional<Vertex> port) {
  if (!port) return false;
  const auto& p = t[*port].as<PortInfo>();
  return p.connect_type != "not used";
}

/// A drive to place: what it can negotiate and how it would run.
struct DriveModel {
  std::string name;
  std::optional<Vertex> block, usb_device;
  UsbSpeed capable = UsbSpeed::SuperPlus2x2;
  bool uas_ok = true;                  ///< would bind `uas` on a SuperSpeed connector
  std::optional<Bandwidth> demand;     ///< nullopt: its link ceiling on the candidate connector
  DemandSource source = DemandSource::LinkCeiling;
  std::optional<std::size_t> current;  ///< index into the slot list
  std::optional<std::size_t> current_connector;
};

/// The link a drive would get on a slot.
struct SlotLink {
  Vertex port{};
  bool superspeed = false;
  UsbRate rate = UsbRate::Unknown;
  StorageProtocol protocol = StorageProtocol::Bot;
};

std::optional<SlotLink> link_on(const PlanSlot& s, const DriveModel& d) {
  if (topology::is_superspeed(d.capable) && s.usb3_port) {
    const UsbSpeed sp = std::min(d.capable, s.usb3_speed.value_or(UsbSpeed::Super));
    return SlotLink{*s.usb3_port, true, topology::usb_rate(sp, 1),
                    d.uas_ok ? StorageProtocol::Uas : StorageProtocol::Bot};
  }
  if (s.usb2_port) {
    const UsbSpeed bus = s.usb2_speed.value_or(UsbSpeed::High);
    const UsbSpeed sp = std::min(topology::is_superspeed(d.capable) ? UsbSpeed::High : d.capable, bus);
    return SlotLink{*s.usb2_port, false, topology::usb_rate(sp, 1), StorageProtocol::Bot};
  }
  return std::nullopt;  // a USB2-only drive on a lone SuperSpeed port cannot connect
}

/// Everything the comparison needs about one evaluated placement.
struct Evaluation {
  std::vector<std::size_t> slots;  ///< per drive, index into the slot list
  std::vector<SlotLink> links;
  Prediction prediction;
  Bandwidth min, total;
  unsigned uas = 0, moves = 0, panels = 0, spread = 0;
  unsigned hubs = 0;         ///< drives behind an external hub (one more shared uplink, one more thing to fail)
  unsigned shared_util = 0;  ///< highest load/capacity (per mille) of a resource that two planned drives share
  bool valid = false;
};

/// Rates compared at 0.1 MB/s: placements that differ by rounding noise are ties, and ties go on to the
/// next criterion (transitive, unlike a relative tolerance).
std::uint64_t q(Bandwidth b) { return (b.bytes_per_s + 50'000) / 100'000; }

class Planner {
 public:
  Planner(const Topology& t, const topology::CapacityModel& m, std::vector<PlanSlot> slots,
          std::vector<DriveModel> drives, PlanPreference prefer, std::size_t exhaustive_limit)
      : t_(t), m_(m), slots_(std::move(slots)), drives_(std::move(drives)), prefer_(prefer),
        exhaustive_limit_(static_cast<double>(exhaustive_limit)) {
    build_panel_rank();
    build_classes();
  }

  std::size_t classes() const { return classes_.size(); }
  std::size_t evaluated() const { return evaluated_; }
  const std::vector<PlanSlot>& slots() const { return slots_; }

  /// The search. Connectors whose ports cross exactly the same shared resources at the same speeds are
  /// interchangeable for the model (two xHCI root ports of one controller, two ports of one hub), so the
  /// search runs over those equivalence classes, each with room for as many drives as it has connectors,
  /// and picks concrete connectors inside a class afterwards (the drive's own connector first: no move;
  /// then the preferred panel; then connector order). Exhaustive when the number of class assignments is
  /// small (identical new drives: multisets of classes; distinct drives: sequences), which covers every
  /// machine we know of for a handful of drives; otherwise greedy (each drive in turn to the class that
  /// scores best) followed by local improvement (move one drive or swap two until nothing improves), which
  /// is deterministic but may miss the optimum on very large machines.
  std::optional<Evaluation> search(std::string& method) {
    const std::size_t nd = drives_.size(), nc = classes_.size();
    if (nd == 0 || nc == 0) return std::nullopt;
    const bool identical = std::all_of(drives_.begin(), drives_.end(), [&](const DriveModel& d) {
      return !d.block && d.demand == drives_[0].demand;
    });
    double count = 1;
    for (std::size_t i = 0; i < nd; ++i) count *= identical ? double(nc + i) / double(i + 1) : double(nc);
    std::vector<Evaluation> all;
    if (count <= exhaustive_limit_) {
      method = "exhaustive";
      std::vector<std::size_t> cls(nd);
      std::vector<std::size_t> used(nc, 0);
      enumerate(0, identical, cls, used, all);
    } else {
      method = "greedy";
      greedy(all);
    }
    return choose(all);
  }

  Evaluation evaluate_slots(const std::vector<std::size_t>& slots) {
    ++evaluated_;
    Evaluation e;
    e.slots = slots;
    FlowProblem p;
    std::map<std::string, std::size_t, std::less<>> index;
    std::map<Vertex, unsigned> per_controller;
    std::set<std::string> panels;
    for (std::size_t i = 0; i < drives_.size(); ++i) {
      const PlanSlot& s = slots_[slots[i]];
      const auto link = link_on(s, drives_[i]);
      if (!link) return e;
      e.links.push_back(*link);
      const auto& port = t_[link->port].as<PortInfo>();
      Resource own;
      own.node = port.name;
      own.id = "drive_link:" + port.name;
      own.kind = ResourceKind::DriveLink;
      own.vertex = link->port;
      own.capacity = topology::usb_drive_capacity(link->rate, link->protocol, m_);
      own.label = std::string(topology::to_string(link->rate)) +
                  (link->protocol == StorageProtocol::Uas ? " UAS" : " BOT") + " link on " + port.name;
      FlowDrive d{drives_[i].name, {}, drives_[i].source, {}};
      if (drives_[i].demand) {
        d.demand = *drives_[i].demand;
      } else {
        d.demand = own.capacity.value_or(Bandwidth::from_mbs(1));
        d.demand_source = DemandSource::LinkCeiling;
      }
      std::vector<Resource> path{own};
      const auto& up = upstream(link->port);
      path.insert(path.end(), up.begin(), up.end());
      for (auto& r : path) {
        auto [it, fresh] = index.try_emplace(r.id, p.resources.size());
        if (fresh) p.resources.push_back(r);
        d.path.push_back(it->second);
      }
      p.drives.push_back(std::move(d));
      if (link->protocol == StorageProtocol::Uas) ++e.uas;
      if (drives_[i].current && *drives_[i].current != slots[i]) ++e.moves;
      if (s.panel) panels.insert(*s.panel);
      if (const auto hub = topology::parent(t_, link->port); hub && t_[*hub].kind == NodeKind::Hub) ++e.hubs;
      ++per_controller[t_.connectors()[s.connector].controller];
    }
    e.prediction = predict_fair_share(p);
    e.min = Bandwidth::from_bytes_per_s(UINT64_MAX);
    for (const auto& d : e.prediction.drives) e.min = std::min(e.min, d.predicted);
    e.total = e.prediction.aggregate;
    e.panels = static_cast<unsigned>(panels.size());
    for (const auto& [c, k] : per_controller) e.spread += k * k;
    for (const auto& r : e.prediction.resources)
      if (r.drives >= 2 && r.capacity && !r.capacity->is_zero())
        e.shared_util = std::max(e.shared_util, static_cast<unsigned>(std::llround(
                                                    1000.0 * r.load.mbs() / r.capacity->mbs())));
    e.valid = true;
    return e;
  }

 private:
  const std::vector<Resource>& upstream(Vertex port) {
    auto it = upstream_.find(port);
    if (it == upstream_.end()) it = upstream_.emplace(port, topology::upstream_resources(t_, port, m_)).first;
    return it->second;
  }

  void build_panel_rank() {
    std::map<std::string, std::size_t> count;
    for (const auto& s : slots_)
      if (s.panel) ++count[*s.panel];
    std::vector<std::pair<std::string, std::size_t>> v(count.begin(), count.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (std::size_t i = 0; i < v.size(); ++i) panel_rank_[v[i].first] = i;
  }
  std::size_t panel_rank(const PlanSlot& s) const {
    if (!s.panel) return panel_rank_.size();
    return panel_rank_.at(*s.panel);
  }

  std::string side_key(std::optional<Vertex> port, std::optional<UsbSpeed> speed) {
    if (!port) return "-";
    std::string k = std::string(topology::to_sysfs_string(speed.value_or(UsbSpeed::Unknown)));
    for (const auto& r : upstream(*port)) k += "," + r.id;
    return k;
  }

  void build_classes() {
    std::map<std::string, std::size_t> by_key;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const auto& s = slots_[i];
      const std::string key = side_key(s.usb3_port, s.usb3_speed) + "|" + side_key(s.usb2_port, s.usb2_speed);
      auto [it, fresh] = by_key.try_emplace(key, classes_.size());
      if (fresh) classes_.emplace_back();
      classes_[it->second].push_back(i);
    }
    for (auto& c : classes_)
      std::stable_sort(c.begin(), c.end(), [&](std::size_t a, std::size_t b) {
        return panel_rank(slots_[a]) < panel_rank(slots_[b]);
      });
  }

  /// Concrete slots for a class assignment: drives already in a class keep their connector.
  std::vector<std::size_t> materialize(const std::vector<std::size_t>& cls) const {
    std::vector<std::size_t> out(cls.size(), SIZE_MAX);
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      std::vector<bool> taken(classes_[c].size(), false);
      for (std::size_t i = 0; i < cls.size(); ++i) {
        if (cls[i] != c || !drives_[i].current) continue;
        for (std::size_t k = 0; k < classes_[c].size(); ++k)
          if (classes_[c][k] == *drives_[i].current && !taken[k]) {
            taken[k] = true;
            out[i] = classes_[c][k];
          }
      }
      for (std::size_t i = 0; i < cls.size(); ++i) {
        if (cls[i] != c || out[i] != SIZE_MAX) continue;
        for (std::size_t k = 0; k < classes_[c].size(); ++k)
          if (!taken[k]) {
            taken[k] = true;
            out[i] = classes_[c][k];
            break;
          }
      }
    }
    return out;
  }

  void enumerate(std::size_t i, bool identical, std::vector<std::size_t>& cls, std::vector<std::size_t>& used,
                 std::vector<Evaluation>& all) {
    if (i == cls.size()) {
      auto e = evaluate_slots(materialize(cls));
      if (e.valid) all.push_back(std::move(e));
      return;
    }
    for (std::size_t c = identical && i > 0 ? cls[i - 1] : 0; c < classes_.size(); ++c) {
      if (used[c] == classes_[c].size()) continue;
      cls[i] = c;
      ++used[c];
      enumerate(i + 1, identical, cls, used, all);
      --used[c];
    }
  }

  bool fits(const std::vector<std::size_t>& cls) const {
    std::vector<std::size_t> used(classes_.size(), 0);
    for (auto c : cls)
      if (++used[c] > classes_[c].size()) return false;
    return true;
  }

  void greedy(std::vector<Evaluation>& all) {
    // Greedy: drive by drive, the class that scores best with the drives placed so far.
    std::vector<std::size_t> cls;
    const auto saved = drives_;
    for (std::size_t i = 0; i < saved.size(); ++i) {
      drives_.assign(saved.begin(), saved.begin() + static_cast<std::ptrdiff_t>(i + 1));
      std::optional<Evaluation> best;
      std::size_t best_c = 0;
      cls.push_back(0);
      for (std::size_t c = 0; c < classes_.size(); ++c) {
        cls.back() = c;
        if (!fits(cls)) continue;
        auto e = evaluate_slots(materialize(cls));
        if (e.valid && (!best || better(e, *best))) best = std::move(e), best_c = c;
      }
      cls.back() = best_c;
    }
    drives_ = saved;
    // Local improvement: single moves and pairwise swaps while one strictly improves.
    auto cur = evaluate_slots(materialize(cls));
    for (bool improved = true; improved;) {
      improved = false;
      for (std::size_t i = 0; i < cls.size() && !improved; ++i) {
        for (std::size_t c = 0; c < classes_.size() && !improved; ++c) {
          auto next = cls;
          next[i] = c;
          if (next == cls || !fits(next)) continue;
          auto e = evaluate_slots(materialize(next));
          if (e.valid && (!cur.valid || better(e, cur))) cls = next, cur = std::move(e), improved = true;
        }
        for (std::size_t j = i + 1; j < cls.size() && !improved; ++j) {
          auto next = cls;
          std::swap(next[i], next[j]);
          if (next == cls) continue;
          auto e = evaluate_slots(materialize(next));
          if (e.valid && (!cur.valid || better(e, cur))) cls = next, cur = std::move(e), improved = true;
        }
      }
    }
    if (cur.valid) all.push_back(std::move(cur));
  }

  /// The ordering of --prefer speed (and of uas after its first criterion).
  bool better_speed(const Evaluation& a, const Evaluation& b) const {
    if (q(a.min) != q(b.min)) return q(a.min) > q(b.min);
    if (q(a.total) != q(b.total)) return q(a.total) > q(b.total);
    if (a.spread != b.spread) return a.spread < b.spread;  // spread over controllers: headroom the model lacks
    if (a.shared_util != b.shared_util) return a.shared_util < b.shared_util;  // headroom on shared links
    if (a.moves != b.moves) return a.moves < b.moves;
    if (a.hubs != b.hubs) return a.hubs < b.hubs;  // a root port rather than a hub port
    if (a.uas != b.uas) return a.uas > b.uas;
    if (a.panels != b.panels) return a.panels < b.panels;  // convenience: one panel
    return a.slots < b.slots;                              // determinism: connector order
  }
  bool better(const Evaluation& a, const Evaluation& b) const {
    if (prefer_ == PlanPreference::Uas && a.uas != b.uas) return a.uas > b.uas;
    return better_speed(a, b);
  }

  std::optional<Evaluation> choose(std::vector<Evaluation>& all) const {
    if (all.empty()) return std::nullopt;
    std::size_t best = 0;
    for (std::size_t i = 1; i < all.size(); ++i)
      if (better(all[i], all[best])) best = i;
    if (prefer_ != PlanPreference::FewMoves) return std::move(all[best]);
    // Fewest moves among the placements within 10% of the best minimum and total.
    const auto& top = all[best];
    std::optional<std::size_t> pick;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& e = all[i];
      if (e.min.mbs() < 0.9 * top.min.mbs() || e.total.mbs() < 0.9 * top.total.mbs()) continue;
      if (!pick || e.moves < all[*pick].moves || (e.moves == all[*pick].moves && better(e, all[*pick])))
        pick = i;
    }
    return std::move(all[*pick]);
  }

  const Topology& t_;
  const topology::CapacityModel& m_;
  std::vector<PlanSlot> slots_;
  std::vector<DriveModel> drives_;
  PlanPreference prefer_;
  double exhaustive_limit_;
  std::vector<std::vector<std::size_t>> classes_;  ///< slot indices per class, preferred first
  std::map<std::string, std::size_t> panel_rank_;
  std::map<Vertex, std::vector<Resource>> upstream_;
  std::size_t evaluated_ = 0;
};

/// The model of a connected drive: what it can negotiate, whether it would run UAS.
DriveModel connected_drive(const Topology& t, Vertex block, Vertex dev, const std::string& name) {
  DriveModel d;
  d.name = name;
  d.block = block;
  d.usb_device = dev;
  const auto& info = t[dev].as<topology::UsbDeviceInfo>();
  d.capable = std::max(info.capable_speed.value_or(UsbSpeed::High), info.speed.value_or(UsbSpeed::High));
  d.uas_ok = false;
  for (std::optional<Vertex> cur = block; cur && *cur != dev; cur = topology::parent(t, *cur))
    if (const auto* itf = t[*cur].get_if<topology::InterfaceInfo>()) {
      // A UAS-capable drive on BOT comes back as UAS on a SuperSpeed port, unless a quirk keeps it on BOT.
      const bool quirked = itf->uas_blocked_reason && itf->uas_blocked_reason->find("quirk") != std::string::npos;
      d.uas_ok = itf->storage == StorageProtocol::Uas || (itf->uas_capable && !quirked);
    }
  return d;
}

std::string rate_label(std::optional<Bandwidth> c) {
  if (!c) return "";
  const double v = c->mbs();
  char buf[32];
  std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f" : "%.1f", v);
  return buf;
}

std::vector<AvoidNote> avoid_notes(const Topology& t, const std::vector<PlanSlot>& slots, const Plan& plan,
                                   bool superspeed_drives, const topology::CapacityModel& m) {
  std::vector<AvoidNote> out;
  AvoidNote usb1{"usb1_only", "", Bandwidth::from_mbs(1.0), {}, ""};
  AvoidNote usb2{"usb2_only", "", Bandwidth::from_mbs(40), {}, ""};
  for (const auto& s : slots) {
    if (s.usb3_port) continue;
    if (s.usb2_speed && *s.usb2_speed <= UsbSpeed::Full)
      usb1.connectors.push_back(s.connector);
    else if (superspeed_drives)
      usb2.connectors.push_back(s.connector);
  }
  usb1.reason = "USB 1.1 only (a companion controller's port, 12 Mb/s): about 1 MB/s for any drive";
  usb2.reason = "no USB3 wiring: a SuperSpeed drive there runs at 480 Mb/s, at most about 40 MB/s";
  // USB2-only connectors are only worth a warning when there are SuperSpeed ones to use instead.
  const bool any_usb3 = std::any_of(slots.begin(), slots.end(), [](const PlanSlot& s) { return s.usb3_port.has_value(); });
  if (!usb2.connectors.empty() && any_usb3) out.push_back(std::move(usb2));
  if (!usb1.connectors.empty()) out.push_back(std::move(usb1));

  // Shared links that cannot carry two drives at the plan's per-drive demand: hub uplinks, EHCI buses,
  // PCIe links shared by two or more free connectors.
  Bandwidth demand = Bandwidth::zero();
  for (const auto& p : plan.placements) demand = std::max(demand, p.prediction.demand);
  std::vector<std::string> order;
  std::map<std::string, AvoidNote> notes;
  for (const auto& s : slots) {
    std::set<std::string> seen;
    for (const auto& side : {s.usb3_port, s.usb2_port}) {
      if (!side) continue;
      for (const auto& r : topology::upstream_resources(t, *side, m)) {
        if (!r.capacity || r.kind == ResourceKind::Controller || !seen.insert(r.id).second) continue;
        if (!(*r.capacity < demand + demand)) continue;
        auto [it, fresh] = notes.try_emplace(r.id);
        if (fresh) {
          order.push_back(r.id);
          it->second = AvoidNote{"shared_link", r.node, r.capacity, {}, {}};
          const char* what = r.kind == ResourceKind::PcieLink   ? "one PCIe link for all ports of the controller"
                             : r.kind == ResourceKind::UsbBus  ? "one USB 2.0 bus for all its ports"
                                                               : "one uplink for all ports of the hub";
          it->second.reason = r.label + ": " + what + ", " + rate_label(r.capacity) +
                              " MB/s in total; two drives there share it";
        }
        it->second.connectors.push_back(s.connector);
      }
    }
  }
  // Nested links that concern the same connectors (a card's own x1 link and the root port above it) are
  // one piece of advice: keep the one nearest to the drives.
  // A link whose connectors all sit below a wider-reaching link that is no faster (a rate-matching hub on an
  // EHCI bus) adds nothing to the advice either.
  std::set<std::vector<std::size_t>> reported;
  for (const auto& id : order) {
    const auto& n = notes[id];
    if (n.connectors.size() < 2 || !reported.insert(n.connectors).second) continue;
    const bool covered = std::any_of(order.begin(), order.end(), [&](const std::string& other) {
      const auto& o = notes[other];
      return o.connectors.size() > n.connectors.size() && *o.capacity <= *n.capacity &&
             std::includes(o.connectors.begin(), o.connectors.end(), n.connectors.begin(), n.connectors.end());
    });
    if (!covered) out.push_back(n);
  }
  return out;
}

}  // namespace

std::string_view to_string(PlanPreference p) {
  switch (p) {
    case PlanPreference::Speed:
      return "speed";
    case PlanPreference::Uas:
      return "uas";
    case PlanPreference::FewMoves:
      return "few-moves";
  }
  return "speed";
}

std::optional<PlanPreference> parse_preference(std::string_view s) {
  for (auto p : {PlanPreference::Speed, PlanPreference::Uas, PlanPreference::FewMoves})
    if (to_string(p) == s) return p;
  return std::nullopt;
}

std::vector<PlanSlot> usable_slots(const Topology& t, const std::vector<Vertex>& movable) {
  std::vector<PlanSlot> out;
  const auto& cs = t.connectors();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Connector& c = cs[i];
    PlanSlot s;
    s.connector = i;
    bool hardwired = false;
    for (const auto& side : {c.usb3_port, c.usb2_port}) {
      if (!side_usable(t, side)) continue;
      const auto& p = t[*side].as<PortInfo>();
      if (p.connect_type == "hardwired") hardwired = true;
      if (p.hub_speed && topology::is_superspeed(*p.hub_speed)) {
        s.usb3_port = side;
        s.usb3_speed = p.hub_speed;
      } else {
        s.usb2_port = side;
        s.usb2_speed = p.hub_speed;
      }
      if (!s.panel && p.physical_location && p.physical_location->panel) s.panel = p.physical_location->panel;
    }
    if (hardwired || (!s.usb3_port && !s.usb2_port)) continue;
    if (const auto occ = topology::occupant(t, c))
      if (std::find(movable.begin(), movable.end(), *occ) == movable.end()) continue;
    out.push_back(std::move(s));
  }
  return out;
}

FlowProblem current_problem(const Topology& t, const std::vector<std::string>& devices,
                            const std::map<std::string, Bandwidth, std::less<>>& per_drive,
                            const topology::CapacityModel& m) {
  std::vector<std::string> names;
  if (devices.empty()) {
    for (const auto& d : common::usb_drives_with_media(t)) names.push_back(d.name);
  } else {
    for (const auto& d : devices) names.push_back(strip_dev(d));
  }
  std::vector<DemandSpec> specs;
  for (const auto& n : names) {
    DemandSpec s{n, std::nullopt, DemandSource::Given};
    if (auto it = per_drive.find(n); it != per_drive.end()) s.demand = it->second;
    specs.push_back(std::move(s));
  }
  return make_problem(t, specs, m);
}

Plan make_plan(const Topology& t, const PlanRequest& req, const topology::CapacityModel& m) {
  Plan plan;
  plan.prefer = req.prefer;
  plan.replace = !req.devices.empty();
  plan.requested = plan.replace ? req.devices.size() : req.new_drives;

  // 1. The drives: connected ones resolved to their USB device (the whole device moves), or N new ones.
  std::vector<DriveModel> drives;
  std::vector<Vertex> movable;
  for (const auto& raw : req.devices) {
    const std::string name = strip_dev(raw);
    const auto b = t.find_by_name(name);
    const auto dev = b ? topology::usb_device_of(t, *b) : std::nullopt;
    if (!b || t[*b].kind != NodeKind::Block || !dev || t[*dev].kind != NodeKind::Device) {
      plan.diagnostics.push_back({Severity::Error, name, "not a USB drive of the scanned topology; left out"});
      continue;
    }
    if (std::find(movable.begin(), movable.end(), *dev) != movable.end()) {
      plan.diagnostics.push_back(
          {Severity::Warning, name, "same USB device as a drive named before (one connector); left out"});
      continue;
    }
    movable.push_back(*dev);
    drives.push_back(connected_drive(t, *b, *dev, name));
  }
  for (unsigned i = 0; i < req.new_drives; ++i) drives.push_back(DriveModel{.name = "drive " + std::to_string(i + 1)});
  for (auto& d : drives) {
    if (auto it = req.per_drive.find(d.name); it != req.per_drive.end())
      d.demand = it->second, d.source = DemandSource::Given;
    else if (req.demand)
      d.demand = req.demand, d.source = DemandSource::Given;
  }

  // 2. The connectors: free ones and those of the drives being re-placed.
  auto slots = usable_slots(t, movable);
  for (auto& d : drives) {
    if (!d.usb_device) continue;
    const auto port = topology::parent(t, *d.usb_device);
    d.current_connector = port ? topology::connector_of(t, *port) : std::nullopt;
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (d.current_connector && slots[i].connector == *d.current_connector) d.current = i;
  }
  if (drives.empty()) return plan;
  if (slots.size() < drives.size()) {
    plan.diagnostics.push_back({Severity::Error, "plan",
                                "only " + std::to_string(slots.size()) + " usable connectors for " +
                                    std::to_string(drives.size()) + " drives"});
    return plan;
  }

  // 3. The current placement's prediction, to compare with (re-place mode).
  if (plan.replace) {
    std::vector<std::string> names;
    std::map<std::string, Bandwidth, std::less<>> given;
    for (const auto& d : drives) {
      names.push_back(d.name);
      if (d.demand) given[d.name] = *d.demand;
    }
    plan.current = predict_fair_share(current_problem(t, names, given, m));
  }

  // 4. Search.
  const bool superspeed = std::any_of(drives.begin(), drives.end(),
                                      [](const DriveModel& d) { return topology::is_superspeed(d.capable); });
  Planner planner(t, m, slots, drives, req.prefer, req.exhaustive_limit);
  const auto best = planner.search(plan.method);
  plan.classes = planner.classes();
  plan.evaluated = planner.evaluated();
  plan.slots = slots;
  if (!best) {
    plan.diagnostics.push_back({Severity::Error, "plan", "no connector can take these drives"});
    return plan;
  }

  // 5. The answer, in request order.
  plan.min = best->min;
  plan.total = best->total;
  plan.moves = best->moves;
  for (std::size_t i = 0; i < drives.size(); ++i) {
    Placement p;
    p.drive = drives[i].name;
    p.connector = slots[best->slots[i]].connector;
    p.port = best->links[i].port;
    p.superspeed = best->links[i].superspeed;
    p.rate = best->links[i].rate;
    p.protocol = best->links[i].protocol;
    p.prediction = best->prediction.drives[i];
    p.from = drives[i].current_connector;
    if (drives[i].usb_device) p.from_port = topology::parent(t, *drives[i].usb_device);
    p.moved = p.from && *p.from != p.connector;
    plan.placements.push_back(std::move(p));
  }
  plan.avoid = avoid_notes(t, slots, plan, superspeed, m);
  return plan;
}

}  // namespace usbsat::analysis::plan

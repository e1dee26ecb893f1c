// The search. Connectors whose ports cross exactly the same shared resources at the same speeds are
// interchangeable for the model (two xHCI root ports of one controller, two ports of one hub), so the search
// runs over those equivalence classes, each with room for as many drives as it has connectors, and picks
// concrete connectors inside a class afterwards (the drive's own connector first: no move; then the
// preferred panel; then connector order). Exhaustive when the number of class assignments is small
// (identical new drives: multisets of classes; distinct drives: sequences), which covers every machine we
// know of for a handful of drives; otherwise greedy (each drive in turn to the class that scores best)
// followed by local improvement (move one drive or swap two until nothing improves), which is deterministic
// but may miss the optimum on very large machines.
#include <algorithm>

#include "src/analysis/plan/internal.hpp"

namespace usbsat::analysis::plan::detail {

using topology::UsbSpeed;
using topology::Vertex;

namespace {

class Search {
 public:
  Search(Scorer& scorer, const std::vector<DriveModel>& drives, PlanPreference prefer)
      : scorer_(scorer), slots_(scorer.slots()), drives_(drives), prefer_(prefer) {
    build_panel_rank();
    build_classes();
  }

  std::size_t classes() const { return classes_.size(); }

  /// The chosen placement; `improvable` tells whether the best placement under --prefer's order beats it on
  /// the objective (only --prefer few-moves settles for less).
  std::optional<Evaluation> run(double exhaustive_limit, std::string& method, bool& improvable) {
    const std::size_t nd = drives_.size(), nc = classes_.size();
    if (nd == 0 || nc == 0) return std::nullopt;
    const bool identical = std::all_of(drives_.begin(), drives_.end(), [&](const DriveModel& d) {
      return !d.block && d.demand == drives_[0].demand;
    });
    double count = 1;
    for (std::size_t i = 0; i < nd; ++i) count *= identical ? double(nc + i) / double(i + 1) : double(nc);
    std::vector<Evaluation> all;
    if (count <= exhaustive_limit) {
      method = "exhaustive";
      std::vector<std::size_t> cls(nd);
      std::vector<std::size_t> used(nc, 0);
      enumerate(0, identical, cls, used, all);
    } else {
      method = "greedy";
      greedy(all);
    }
    return choose(all, improvable);
  }

 private:
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
    for (const auto& r : scorer_.upstream(*port)) k += "," + r.id;
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

  Evaluation evaluate(const std::vector<std::size_t>& cls) {
    return scorer_.evaluate(std::span<const DriveModel>(drives_).first(cls.size()), materialize(cls));
  }

  void enumerate(std::size_t i, bool identical, std::vector<std::size_t>& cls, std::vector<std::size_t>& used,
                 std::vector<Evaluation>& all) {
    if (i == cls.size()) {
      auto e = evaluate(cls);
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

  bool better(const Evaluation& a, const Evaluation& b) const { return detail::better(a, b, prefer_); }

  void greedy(std::vector<Evaluation>& all) {
    // Greedy: drive by drive, the class that scores best with the drives placed so far.
    std::vector<std::size_t> cls;
    for (std::size_t i = 0; i < drives_.size(); ++i) {
      std::optional<Evaluation> best;
      std::size_t best_c = 0;
      cls.push_back(0);
      for (std::size_t c = 0; c < classes_.size(); ++c) {
        cls.back() = c;
        if (!fits(cls)) continue;
        auto e = evaluate(cls);
        if (e.valid && (!best || better(e, *best))) best = std::move(e), best_c = c;
      }
      cls.back() = best_c;
    }
    // Re-place mode: start from the current placement when it is better, so that local improvement only
    // moves a drive for a gain (greedy may not find its way back to where the drives already are).
    auto cur = evaluate(cls);
    if (const auto now = current_classes()) {
      auto e = evaluate(*now);
      if (e.valid && (!cur.valid || better(e, cur))) cls = *now, cur = std::move(e);
    }
    // Local improvement: single moves and pairwise swaps while one strictly improves.
    for (bool improved = true; improved;) {
      improved = false;
      for (std::size_t i = 0; i < cls.size() && !improved; ++i) {
        for (std::size_t c = 0; c < classes_.size() && !improved; ++c) {
          auto next = cls;
          next[i] = c;
          if (next == cls || !fits(next)) continue;
          auto e = evaluate(next);
          if (e.valid && (!cur.valid || better(e, cur))) cls = next, cur = std::move(e), improved = true;
        }
        for (std::size_t j = i + 1; j < cls.size() && !improved; ++j) {
          auto next = cls;
          std::swap(next[i], next[j]);
          if (next == cls) continue;
          auto e = evaluate(next);
          if (e.valid && (!cur.valid || better(e, cur))) cls = next, cur = std::move(e), improved = true;
        }
      }
    }
    if (cur.valid) all.push_back(std::move(cur));
  }

  /// The class of every drive's current slot; nullopt unless every drive has one (re-place mode).
  std::optional<std::vector<std::size_t>> current_classes() const {
    std::vector<std::size_t> cls;
    for (const auto& d : drives_) {
      if (!d.current) return std::nullopt;
      for (std::size_t c = 0; c < classes_.size(); ++c)
        if (std::find(classes_[c].begin(), classes_[c].end(), *d.current) != classes_[c].end())
          cls.push_back(c);
    }
    return cls;
  }

  std::optional<Evaluation> choose(std::vector<Evaluation>& all, bool& improvable) const {
    improvable = false;
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
    improvable = improves_objective(top, all[*pick], prefer_);
    return std::move(all[*pick]);
  }

  Scorer& scorer_;
  const std::vector<PlanSlot>& slots_;
  const std::vector<DriveModel>& drives_;
  PlanPreference prefer_;
  std::vector<std::vector<std::size_t>> classes_;  ///< slot indices per class, preferred first
  std::map<std::string, std::size_t> panel_rank_;
};

}  // namespace

SearchResult search(Scorer& scorer, const std::vector<DriveModel>& drives, PlanPreference prefer,
                    std::size_t exhaustive_limit) {
  Search s(scorer, drives, prefer);
  SearchResult out;
  out.best = s.run(static_cast<double>(exhaustive_limit), out.method, out.improvable);
  out.classes = s.classes();
  return out;
}

}  // namespace usbsat::analysis::plan::detail

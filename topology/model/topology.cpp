#include "topology/model/topology.hpp"

#include <algorithm>
#include <cctype>

namespace usbsat::topology {

std::optional<Vertex> Topology::find(std::string_view syspath) const {
  if (auto it = by_syspath_.find(syspath); it != by_syspath_.end()) return it->second;
  return std::nullopt;
}

std::optional<Vertex> Topology::find_by_name(std::string_view name) const {
  if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  return std::nullopt;
}

std::optional<Vertex> parent(const Topology& t, Vertex v) {
  auto [b, e] = boost::in_edges(v, t.graph());
  if (b == e) return std::nullopt;
  return boost::source(*b, t.graph());
}

std::optional<Edge> uplink(const Topology& t, Vertex v) {
  auto [b, e] = boost::in_edges(v, t.graph());
  if (b == e) return std::nullopt;
  return *b;
}

std::vector<Vertex> children(const Topology& t, Vertex v) {
  std::vector<Vertex> out;
  for (auto [b, e] = boost::out_edges(v, t.graph()); b != e; ++b) out.push_back(boost::target(*b, t.graph()));
  return out;
}

std::vector<Vertex> ancestors(const Topology& t, Vertex v) {
  std::vector<Vertex> out;
  for (auto p = parent(t, v); p; p = parent(t, *p)) out.push_back(*p);
  return out;
}

std::optional<Vertex> nearest(const Topology& t, Vertex v, NodeKind k) {
  for (std::optional<Vertex> cur = v; cur; cur = parent(t, *cur))
    if (t[*cur].kind == k) return cur;
  return std::nullopt;
}

std::optional<Vertex> controller_of(const Topology& t, Vertex v) {
  return nearest(t, v, NodeKind::Controller);
}

std::optional<Vertex> usb_device_of(const Topology& t, Vertex v) {
  for (std::optional<Vertex> cur = v; cur; cur = parent(t, *cur))
    if (t[*cur].kind == NodeKind::Device || t[*cur].kind == NodeKind::Hub) return cur;
  return std::nullopt;
}

std::vector<Vertex> hub_chain(const Topology& t, Vertex dev) {
  std::vector<Vertex> out;
  for (auto p = parent(t, dev); p; p = parent(t, *p)) {
    if (t[*p].kind == NodeKind::RootHub || t[*p].kind == NodeKind::Controller) break;
    if (t[*p].kind == NodeKind::Hub) out.push_back(*p);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<Vertex> pcie_uplink(const Topology& t, Vertex c) {
  std::vector<Vertex> out;
  for (auto p = parent(t, c); p; p = parent(t, *p)) {
    const auto* hop = t[*p].get_if<PciHopInfo>();
    if (hop && !hop->link.empty()) out.push_back(*p);
  }
  return out;
}

const std::vector<Vertex>& of_kind(const Topology& t, NodeKind k) {
  return t.by_kind_[static_cast<std::size_t>(k)];
}

namespace {
/// Disk names sort as the kernel allocates them: shorter first within one prefix (sdz < sdaa).
bool disk_less(std::string_view a, std::string_view b) {
  auto alpha_prefix = [](std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    return i;
  };
  const auto pa = alpha_prefix(a), pb = alpha_prefix(b);
  const bool a_plain = pa == a.size(), b_plain = pb == b.size();
  if (a_plain && b_plain && a.size() >= 2 && b.size() >= 2 && a.substr(0, 2) == b.substr(0, 2) &&
      a.size() != b.size())
    return a.size() < b.size();
  return natural_less(a, b);
}
}  // namespace

void Topology::index_vertices() {
  for (auto& list : by_kind_) list.clear();
  std::vector<Vertex> stack(roots_.rbegin(), roots_.rend());
  while (!stack.empty()) {
    const Vertex v = stack.back();
    stack.pop_back();
    by_kind_[static_cast<std::size_t>(g_[v].kind)].push_back(v);
    auto kids = children(*this, v);
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  blocks_ = of_kind(*this, NodeKind::Block);
  std::stable_sort(blocks_.begin(), blocks_.end(), [&](Vertex a, Vertex b) {
    return disk_less(g_[a].as<BlockInfo>().name, g_[b].as<BlockInfo>().name);
  });
  block_rank_.assign(size(), std::nullopt);
  for (std::size_t i = 0; i < blocks_.size(); ++i) block_rank_[blocks_[i]] = i;
}

void Topology::index_connectors() {
  connector_index_.assign(size(), std::nullopt);
  for (std::size_t i = 0; i < connectors_.size(); ++i)
    for (const auto& side : {connectors_[i].usb2_port, connectors_[i].usb3_port})
      if (side && !connector_index_[*side]) connector_index_[*side] = i;
}

const std::vector<Vertex>& block_devices(const Topology& t) {
  return t.blocks_;
}

std::optional<std::size_t> block_rank(const Topology& t, Vertex v) {
  return v < t.block_rank_.size() ? t.block_rank_[v] : std::nullopt;
}

std::optional<std::size_t> connector_of(const Topology& t, Vertex port) {
  return port < t.connector_index_.size() ? t.connector_index_[port] : std::nullopt;
}

std::optional<Vertex> occupant(const Topology& t, const Connector& c) {
  for (const auto& side : {c.usb3_port, c.usb2_port}) {
    if (!side) continue;
    auto kids = children(t, *side);
    if (!kids.empty()) return kids.front();
  }
  return std::nullopt;
}

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])),
               db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      auto na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return (a.size() - i) < (b.size() - j);
}

}  // namespace usbsat::topology

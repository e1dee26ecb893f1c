#include "topology/basis.hpp"

#include <array>
#include <utility>

namespace usbsat::topology {
namespace {

/// The one string table of BasisKind, both directions (systemd's DEFINE_STRING_TABLE_LOOKUP shape).
constexpr std::array<std::pair<BasisKind, std::string_view>, 5> kBasisNames{{
    {BasisKind::LinkCeiling, "link_ceiling"},
    {BasisKind::Measured, "measured"},
    {BasisKind::Given, "given"},
    {BasisKind::Estimated, "estimated"},
    {BasisKind::Published, "published"},
}};

}  // namespace

std::string_view to_string(BasisKind k) {
  for (const auto& [kind, name] : kBasisNames)
    if (kind == k) return name;
  return "link_ceiling";
}

std::optional<BasisKind> parse_basis_kind(std::string_view s) {
  for (const auto& [kind, name] : kBasisNames)
    if (name == s) return kind;
  return std::nullopt;
}

}  // namespace usbsat::topology

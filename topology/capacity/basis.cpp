#include "topology/capacity/basis.hpp"

#include "topology/base/string_table.hpp"

namespace usbsat::topology {
namespace {
constexpr StringTable<BasisKind, 5> kBasisNames{{{
    {BasisKind::LinkCeiling, "link_ceiling"},
    {BasisKind::Measured, "measured"},
    {BasisKind::Given, "given"},
    {BasisKind::Estimated, "estimated"},
    {BasisKind::Published, "published"},
}}};
}  // namespace

std::string_view to_string(BasisKind k) {
  return kBasisNames.name(k, "link_ceiling");
}

std::optional<BasisKind> parse_basis_kind(std::string_view s) {
  return kBasisNames.parse(s);
}

}  // namespace usbsat::topology

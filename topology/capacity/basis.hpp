#pragma once
/// Why a figure is what it is: a drive's demand (given > measured > estimated from the medium > its link's
/// ceiling) or a resource's capacity (the table's, or measured by `usbsat saturate`). A plain value that the
/// analyses fill, the renderers print through topology/words/describe.hpp (describe_basis), and the history
/// store (topology/history) reproduces.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace usbsat::topology {

/// The kinds of basis, in the order a drive's demand is chosen: given, measured, estimated, link ceiling.
enum class BasisKind : std::uint8_t {
  LinkCeiling,  ///< the drive's own link capacity (topology/capacity/bandwidth.hpp)
  Measured,     ///< what usbsat measured: the drive alone (`load`, `saturate`), or a plateau (`saturate`)
  Given,        ///< a rate the user gave (`--demand sdb=170M`)
  Estimated,    ///< from the medium: a hard disk's sustained rate, SATA behind a bridge (drive_estimate.hpp)
  Published,    ///< a published measurement of the controller on a stated setup
                ///< (topology/capacity/published.hpp)
};
/// "link_ceiling", "measured", "given", "estimated", "published" (JSON values; stable API).
std::string_view to_string(BasisKind k);
/// The inverse of to_string(BasisKind); nullopt for anything else.
std::optional<BasisKind> parse_basis_kind(std::string_view s);

struct Basis {
  BasisKind kind = BasisKind::LinkCeiling;
  /// What it rests on: the medium ("portable hard disk"), the job measured ("load read 128k QD1"), the link
  /// ("USB 3.2 Gen 1 UAS link").
  std::string what;
  std::string source;                ///< an estimate's or a published figure's source (with its setup)
  std::optional<std::string> date;   ///< measured: when ("2026-12-06T10:04:05Z")
  std::optional<std::string> where;  ///< measured: where ("usb4-port1, USB 3.2 Gen 1 UAS"); published: "UAS"
  std::optional<double> figure_mbs;  ///< published: the source's figure (MB/s)
  /// A measured or published capacity: what the table says for that resource (nullopt with `model_unlimited`:
  /// none).
  std::optional<double> model_mbs;
  bool model_unlimited = false;
  /// measured: the figure is a lower bound (no contention seen at that aggregate)
  bool at_least = false;
  std::string note;  ///< a caveat: why a measurement was not used, or was used although the link changed
  bool operator==(const Basis&) const = default;
};

}  // namespace usbsat::topology

#pragma once
/// The one home for wording that names drives, controllers, ports, connectors, links and nodes: the text
/// views, the doctor, plan and saturate all build these phrases here ("0781:5567 SanDisk Cruzer Blade",
/// "sdc (Samsung Portable SSD T7, 04e8:4001)", "usb1-port3 (USB3 side usb2-port3, back panel, upper left)").
/// All device-supplied strings pass through escape_unprintable() (display_string()), so no phrase built here
/// carries a control character. Rates ("392 MB/s") and PCIe links ("PCIe 5 GT/s x1") are written only here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/capacity/bandwidth.hpp"
#include "topology/capacity/basis.hpp"
#include "topology/capacity/pcie_tunnels.hpp"
#include "topology/capacity/usb4_tunnels.hpp"
#include "topology/model/connectors.hpp"
#include "topology/model/controller_name.hpp"
#include "topology/model/node.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

/// A USB4/Thunderbolt router: "router 0-0 host, USB4 [8087:9a1b] Intel Tiger Lake, security user, USB4 ports
/// 1 usb4 (Type-C with usb1-port1, usb2-port1), 2 none"; a device router adds its link (describe_usb4_link).
std::string describe_router(const topology::Topology& t, topology::Vertex v);
/// A USB4 link as trained and what it leaves: "20 Gb/s x 1 lane (capable 20 Gb/s x 2): 18 Gb/s usable, USB3
/// tunnel up to 8 Gb/s (isochronous allocation 9 Gb/s)" (", 2 DisplayPort tunnels 32 Gb/s host to dock
/// (...)" before the USB3 tunnel, and "up to 8 Gb/s reads, 3.2 Gb/s writes", when displays ride it).
std::string describe_usb4_link(const topology::Usb4LinkSummary& l);
/// A USB3 tunnel's bulk ceiling by direction: "up to 8 Gb/s", "up to 8 Gb/s reads, 3.2 Gb/s writes"; "" when
/// unknown.
std::string usb3_tunnel_ceiling_text(const topology::Usb4LinkSummary& l);
/// "USB3 tunnel of the USB4 link 0-1 (Dell WD22TB4), up to 8 Gb/s" (the DisplayPort assumption added when
/// DisplayPort tunnels were not read, the tunnels named when they were).
std::string describe_usb3_tunnel(const topology::Usb4LinkSummary& l);
/// The picture's line from a device router to where its USB3 tunnel arrives: "USB3 tunnel, up to 8 Gb/s
/// reads, 3.2 Gb/s writes".
std::string describe_usb3_tunnel_edge(const topology::Usb4LinkSummary& l);
/// The picture's line from a host router to the xHCI its links' USB3 tunnels arrive at: "host router: its
/// USB3 tunnels arrive here".
std::string describe_host_router_join();
/// "PCIe tunnel to 0000:05:00.0, up to 400 MB/s (its controller's PCIe link; the link 3600 MB/s)": where a
/// Thunderbolt dock's PCIe tunnel arrives and what limits it.
std::string describe_pcie_tunnel(const topology::Topology& t, const topology::PcieTunnelSummary& p);
/// A display whose DisplayPort tunnel rides a USB4 link: "card0-DP-1 3840x2160 DELL U2720Q" (mode and
/// name from its EDID; ", disabled" when the connector is not enabled).
std::string describe_display(const topology::DisplayConnectorInfo& d);
/// One display's DisplayPort tunnel: "DisplayPort tunnel 16 Gb/s host to dock (3840x2160, 533.25 MHz x 3 x
/// 10 bits)", "DisplayPort tunnel 17.28 Gb/s host to dock (HBR2 x 4 reserved: mode not known)".
std::string describe_dp_tunnel(const topology::DisplayConnectorInfo& d);
/// The DisplayPort tunnels of a link: "2 DisplayPort tunnels 32 Gb/s host to dock (their EDID modes)", "...
/// (HBR2 x 4 reserved each)"; "" when none were seen.
std::string describe_dp_tunnels(const topology::Usb4LinkSummary& l);
/// A USB4 link's lanes: "20 Gb/s x 2 lanes", "10 Gb/s x 1 lane".
std::string usb4_lanes_text(unsigned lane_gbps, unsigned lanes);

/// "0781:5567 SanDisk Cruzer Blade" (vendor:product ids, then manufacturer/product strings, falling back to
/// hwdb names).
std::string describe_usb_device(const topology::UsbDeviceInfo& d);
/// A controller's heading: controller_name() with its ids, vendor and model ("xHCI controller 0000:00:14.0
/// [8086:7a60] Intel Corporation Raptor Lake ... Controller").
std::string describe_controller(const topology::ControllerSummary& c);
/// "00:14.0" — the PCI address without the default domain "0000:".
std::string short_pci(const std::string& bdf);
/// "WDC WD40EFRX-68N32N0": vendor and model of a disk, empty parts skipped, text-safe.
std::string disk_model(const std::optional<std::string>& vendor, const std::optional<std::string>& model);
/// "480M", or "480M (capable 5G)" when the device could go faster (only for USB2/USB3 capabilities: a
/// low-speed device's bcdUSB 1.10 is no promise of 12M).
std::string describe_speed(std::optional<topology::UsbSpeed> speed,
                           std::optional<topology::UsbSpeed> capable);
/// Whether a device runs below what it could do: both speeds known, the capability faster and at least USB2
/// (the one rule behind describe_speed()'s "(capable ...)" and the report's "below capability" colour).
bool below_capability(std::optional<topology::UsbSpeed> speed, std::optional<topology::UsbSpeed> capable);

/// Where a drive is plugged in: "port 3" on a root hub, "port 2 of hub 2-1" behind a hub; "" when `block` is
/// not below a USB port.
std::string drive_where(const topology::Topology& t, topology::Vertex block);

/// A node for sentences: "controller 0000:03:00.0 (ASM1042)", "hub 2-1 (USB3.1 Hub)", "root hub usb4",
/// "PCIe port 0000:01:00.0 (PEX 8608 upstream)".
std::string describe_node(const topology::Topology& t, topology::Vertex v);

// ---- phrases for sentences (doctor findings, verdicts)
// ------------------------------------------------------

/// "04e8:4001", or "" when either id is unknown (topology::format_vid_pid).
std::string usb_ids(const topology::UsbDeviceInfo& d);
/// How sentences name a drive: "sdc (Samsung Portable SSD T7, 04e8:4001)": `name` (its disk, or the USB
/// device's kernel name), then maker + product (the maker only when the product does not already say it) and
/// the ids. Just `name` when nothing else is known.
std::string describe_drive(const topology::UsbDeviceInfo& u, std::string_view name);
/// "hub 1-1 (USB2.0 Hub)", "hub 2-1" without a product string.
std::string describe_hub(const topology::UsbDeviceInfo& hub);
/// A controller in a table's controller column: "01:00.0 xHCI" (the address without the default domain, then
/// the kind), as `drives` and `plan` show it.
std::string controller_cell(topology::HcdKind k, std::string_view bdf);
/// controller_name() with the model: "xHCI controller 0000:03:00.0 (ASM1042 SuperSpeed USB Host Controller)".
std::string controller_label(const topology::ControllerInfo& c);

// ---- rates and PCIe links: the one place that writes "MB/s" and "GT/s x" (tests/support/phrase_check.py)
// ------------------------------------------------------

/// A modelled capacity for sentences and tables: "392 MB/s", "1.22 MB/s", "1575 MB/s" (three significant
/// digits below 1000 MB/s, whole MB/s above; report's fmt::formatter<Bandwidth> prints this).
std::string bandwidth_text(Bandwidth b);
/// A rate in MB/s (10^6 B/s): "392 MB/s" (`decimals` 0: predictions, demands and measurements in sentences),
/// "392.4 MB/s" (`decimals` 1: the figures the load, saturate, plan and watch views print).
std::string mbs_text(double mbs, int decimals = 0);
/// mbs_text() without the unit, for a column headed "MB/s" or a list that names the unit once
/// ("310+35 MB/s"): "392", "392.4".
std::string mbs_figure(double mbs, int decimals = 0);
/// Rates that share one unit: "310+35 MB/s" (`sep` "+"), "310, 35 MB/s"; whole MB/s.
std::string mbs_list_text(const std::vector<double>& mbs, std::string_view sep);
/// The signalling rate of a USB speed for sentences: "480 Mb/s", "5 Gb/s", "12 Mb/s".
std::string usb_rate_text(topology::UsbSpeed s);
/// A USB speed as sysfs spells it ("480", "5000"), "unknown" when absent: evidence values.
std::string sysfs_speed_text(std::optional<topology::UsbSpeed> s);
/// A PCIe link speed as the kernel spells it in current_link_speed: "2.5 GT/s PCIe", "8.0 GT/s PCIe".
std::string sysfs_pcie_speed(double gts);
/// Where a port is on the machine, for every view and sentence: "back panel, upper left", "front panel,
/// center right, dock", "lid" ("unknown" parts left out); "" when nothing is known.
std::string describe_location(const topology::PhysicalLocation& l);
/// A connector for sentences: "usb1-port3 (USB3 side usb2-port3, back panel, upper left)".
std::string describe_connector(const topology::Topology& t, const topology::Connector& c);
/// What a port's `peer` attribute points at: the peer port's name ("usb2-port2"), "(none)" when it has no
/// peer, "(itself)" when it names the port itself, "(not found: <peer>)" when the peer is not in the scan.
std::string describe_peer(const topology::Topology& t, const topology::PortInfo& p);
/// Whether `p`'s peer attribute names another port that is in the scan (absent peer: false).
bool peer_resolves(const topology::Topology& t, const topology::PortInfo& p);
/// "sdb (port 1)": a drive with the place it is plugged in (drive_where()), just `dev` when `where` is "".
std::string drive_at(std::string_view dev, std::string_view where);

// ---- bases: why a demand or a capacity is what it is (topology/capacity/basis.hpp)
// ------------------------------------------

/// A demand's basis for sentences and evidence, its note after "; ":
///   given      "given (--demand)"
///   measured   "measured 2026-12-06 (load read 128k QD1; usb4-port1, USB 3.2 Gen 1 UAS)"
///   estimated  "estimated: portable hard disk (rotational, bus-powered)"
///   published  "published: VL805 on Raspberry Pi 4, BOT ~172 MB/s (Jeff Geerling, ..., 2020; SATA SSD in a
///              UAS enclosure, hdparm)"
///   link       "its USB 3.2 Gen 1 UAS link's ceiling"
std::string describe_basis(const Basis& b);
/// The same in a word or two (table columns, sentences that list drives): "given", "measured 2026-12-06",
/// "estimate", "published", "link ceiling".
std::string basis_short(const Basis& b);
/// A measured capacity: "measured 2026-12-06: 318 MB/s (model 400 MB/s)", "... (model: not limited)",
/// "measured 2026-12-06: at least 450 MB/s (model 400 MB/s)"; a published one: "published: VL805 on
/// Raspberry Pi 4, UAS ~297 MB/s (Jeff Geerling, ..., 2020; ...); model: not limited".
std::string describe_capacity_basis(const Basis& b, Bandwidth capacity);

}  // namespace usbsat::topology

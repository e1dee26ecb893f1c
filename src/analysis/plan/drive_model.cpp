// The drives to place: connected ones resolved by the one drive rule, new ones assumed SuperSpeed + UAS, and
// the link each would negotiate on a connector.
#include <algorithm>

#include "src/analysis/model/demand.hpp"
#include "src/analysis/plan/internal.hpp"
#include "topology/base/text.hpp"

namespace usbsat::analysis::plan::detail {

using topology::StorageProtocol;
using topology::Topology;
using topology::UsbSpeed;
using topology::Vertex;

namespace {

/// The model of a connected drive: what it can negotiate, whether it would run UAS.
DriveModel connected_drive(const Topology& t, const common::UsbDrive& u) {
  DriveModel d;
  d.name = u.name;
  d.block = u.block;
  d.usb_device = u.device;
  const auto& info = t[u.device].as<topology::UsbDeviceInfo>();
  d.capable = std::max(info.capable_speed.value_or(UsbSpeed::High), info.speed.value_or(UsbSpeed::High));
  d.uas_ok = false;
  for (std::optional<Vertex> cur = u.block; cur && *cur != u.device; cur = topology::parent(t, *cur))
    if (const auto* itf = t[*cur].get_if<topology::InterfaceInfo>()) {
      // A UAS-capable drive on BOT comes back as UAS on a SuperSpeed port, unless a quirk keeps it on BOT.
      const bool quirked =
          itf->uas_blocked_reason && itf->uas_blocked_reason->find("quirk") != std::string::npos;
      d.uas_ok = itf->storage == StorageProtocol::Uas || (itf->uas_capable && !quirked);
    }
  return d;
}

}  // namespace

NamedDrive find_usb_drive(const std::vector<common::UsbDrive>& all, std::string_view name) {
  const std::string_view n = topology::strip_dev_prefix(name);
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const common::UsbDrive& d) { return d.name == n; });
  if (it == all.end()) return {std::nullopt, false, "not a USB drive of the scanned topology; left out"};
  if (!it->has_media) return {std::nullopt, true, "no medium (an empty card-reader slot); left out"};
  return {*it, false, {}};
}

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

RequestedDrives requested_drives(const Topology& t, const PlanRequest& req) {
  RequestedDrives out;
  const auto usb = common::usb_drives(t);
  for (const auto& raw : req.devices) {
    const std::string name(topology::strip_dev_prefix(raw));
    const auto found = find_usb_drive(usb, name);
    if (!found.drive) {
      // Unknown: an error (exit 4). An empty card-reader slot is a drive of the scan with nothing to move.
      out.diagnostics.push_back(
          {found.no_medium ? topology::Severity::Warning : topology::Severity::Error, name, found.problem});
      continue;
    }
    if (std::find(out.movable.begin(), out.movable.end(), found.drive->device) != out.movable.end()) {
      out.diagnostics.push_back({topology::Severity::Warning, name,
                                 "same USB device as a drive named before (one connector); left out"});
      continue;
    }
    out.movable.push_back(found.drive->device);
    out.drives.push_back(connected_drive(t, *found.drive));
  }
  for (unsigned i = 0; i < req.new_drives; ++i)
    out.drives.push_back(DriveModel{.name = new_drive_name(i + 1)});
  for (auto& d : out.drives) {
    std::optional<Bandwidth> given = req.demand;
    if (auto it = req.per_drive.find(d.name); it != req.per_drive.end()) given = it->second;
    if (!d.block) {  // a new drive: only a given demand, else its link ceiling on each connector
      if (given) d.demand = given, d.basis = topology::Basis{model::DemandSource::Given, "--demand"};
      continue;
    }
    auto dd = model::drive_demand(t, *d.block, given, req.history);
    if (dd.basis.kind == model::DemandSource::LinkCeiling) continue;  // the ceiling of each candidate link
    d.demand = dd.demand;
    d.basis = std::move(dd.basis);
  }
  return out;
}

void locate_current(const Topology& t, const std::vector<PlanSlot>& slots, std::vector<DriveModel>& drives) {
  for (auto& d : drives) {
    if (!d.usb_device) continue;
    const auto port = topology::parent(t, *d.usb_device);
    d.current_connector = port ? topology::connector_of(t, *port) : std::nullopt;
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (d.current_connector && slots[i].connector == *d.current_connector) d.current = i;
  }
}

}  // namespace usbsat::analysis::plan::detail

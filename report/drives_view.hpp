#pragma once
/// `usbsat drives`: one row per whole-disk block device (text table plus notes) or the JSON document
/// {"drives":[...],"diagnostics":[...]} whose keys report/README.md documents.
#include <span>
#include <string>
#include <vector>

#include "report/json_common.hpp"
#include "report/view_input.hpp"
#include "topology/model/drives.hpp"

namespace usbsat::report {

/// One drive as a JSON object, keys in the documented order; USB fields null for non-USB disks.
Json json_drive(const topology::DriveSummary& d);
/// Why a drive runs slower or with a weaker protocol than it could, one sentence each ("sdc: negotiated 480M,
/// capable of 5G: connector usb1-port7 is USB2 only"); empty when it runs as well as it can. Also `watch`.
std::vector<std::string> drive_notes(const topology::DriveSummary& d);
/// The whole `drives --json` document.
std::string render_drives_json(const ViewInput& in);
/// The `drives` table followed by one note per drive that runs slower or with a weaker protocol than it
/// could.
std::string render_drives_text(const ViewInput& in);

}  // namespace usbsat::report

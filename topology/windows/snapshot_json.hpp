#pragma once
/// The JSON form of a WindowsSnapshot (the `data` of a "windows" recording): one reader, one writer, both
/// driven by one field list per struct (snapshot_json.cpp), so the two cannot drift apart.
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "topology/model/diagnostic.hpp"
#include "topology/windows/snapshot.hpp"

namespace usbsat::topology::windows {

/// Read a snapshot. An absent key is an unknown value; a value of the wrong type (or out of range) is
/// treated as absent and reported as a warning naming its JSON path; unknown keys are ignored (newer
/// recorders may add some). `data` that is not a JSON object throws ScanError.
WindowsSnapshot snapshot_from_json(const nlohmann::json& data, std::vector<Diagnostic>& diagnostics);

/// Write a snapshot; unknown (nullopt) values are left out. snapshot_from_json(snapshot_to_json(s)) == s.
nlohmann::json snapshot_to_json(const WindowsSnapshot& s);

}  // namespace usbsat::topology::windows

#pragma once
/// usbsat's memory of what drives and shared links really did: every `load` and `saturate` measurement per
/// drive (alone and in groups), and the plateaus `saturate` found on modelled resources. `plan`, `doctor`,
/// `report` and `export` read it (a drive's demand, src/analysis/model/demand.hpp; a resource's capacity,
/// calibrations()); `usbsat history` lists and forgets it. Plain values here; the JSON document is
/// store_json.hpp, the file (where, locking, atomic replacement) src/cli/history_file.hpp.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "topology/capacity/bandwidth.hpp"

namespace usbsat::history {

/// Bounds that keep the store small whatever happens: the newest measurements of a drive, the drives
/// measured last, the resources measured last.
inline constexpr std::size_t kMaxMeasurementsPerDrive = 32;
inline constexpr std::size_t kMaxDrives = 256;
inline constexpr std::size_t kMaxResources = 256;

/// One measurement of one drive: `group` empty when it ran alone, else every drive of that phase.
struct Measurement {
  std::string date;     ///< RFC 3339 UTC: "2026-12-06T10:04:05Z"
  std::string version;  ///< the usbsat that measured
  std::string command;  ///< "load" or "saturate"
  std::string pattern;  ///< "read", "write", "randread", ...
  std::uint64_t block_size = 0;
  unsigned queue_depth = 0;
  std::vector<std::string> group;  ///< the drives measured at once (block names, this one included)
  double mbs = 0, iops = 0;
  std::string device;      ///< its block device then ("sdb")
  std::string connector;   ///< its connector then ("usb4-port1"; "" when unknown)
  std::string rate;        ///< its negotiated rate then (topology::to_string(UsbRate): "USB 3.2 Gen 1")
  std::string protocol;    ///< its storage protocol then ("uas", "bot")
  std::string controller;  ///< its controller then ("0000:03:00.0")
  bool alone() const { return group.size() <= 1; }
  bool operator==(const Measurement&) const = default;
};

/// A drive as the store recognises it on any port: USB vid:pid, the serial's pseudonym (as recordings hide
/// it: topology/recording/serials.hpp) and the capacity. `key` joins them:
/// "0781:558c:h:0123456789ab:1000204886016".
struct DriveRecord {
  std::string key;
  std::string vid_pid, serial;
  std::uint64_t size_bytes = 0;
  std::string model;  ///< what it was called ("SanDisk Extreme 55AE"), for `usbsat history`
  std::vector<Measurement> measurements;  ///< oldest first
  bool operator==(const DriveRecord&) const = default;
};

/// A modelled resource's capacity as `saturate` measured it: the plateau of a group that shares it.
struct ResourceRecord {
  std::string id;        ///< the resource id ("pcie_link:0000:03:00.0")
  std::string identity;  ///< topology::resource_identity() of its vertex then ("1b21:1042")
  std::string kind;      ///< topology::to_string(ResourceKind)
  std::string label;     ///< its label then
  double measured_mbs = 0;
  std::optional<double> model_mbs;  ///< what the table said (nullopt: not limited)
  bool at_least = false;            ///< no contention at this aggregate: the capacity is at least this
  std::string date, version;
  std::vector<std::string> drives;  ///< the drives whose plateau it was
  bool operator==(const ResourceRecord&) const = default;
};

struct Store {
  std::vector<DriveRecord> drives;        ///< in the order first measured
  std::vector<ResourceRecord> resources;  ///< one per id, the newest
  bool operator==(const Store&) const = default;
};

/// "vid:pid:serial:size".
std::string drive_key(const std::string& vid_pid, const std::string& serial, std::uint64_t size_bytes);

/// Add `m` to the drive `d` (found by key, else appended with `d`'s fields), keeping the newest
/// kMaxMeasurementsPerDrive; beyond kMaxDrives the drive measured longest ago is dropped. An identical
/// measurement already there is not added twice (a merge of two writers).
void add_measurement(Store& s, const DriveRecord& d, const Measurement& m);
/// Set the resource's record (one per id: the newer date wins), keeping at most kMaxResources (the
/// oldest dropped).
void set_resource(Store& s, const ResourceRecord& r);
/// Everything of `from` added into `into` (add_measurement, set_resource): what two writers merge.
void merge(Store& into, const Store& from);
/// Drop the drive with `key`; true when there was one.
bool forget_drive(Store& s, const std::string& key);

/// The drive with `key`, or nullptr.
const DriveRecord* find_drive(const Store& s, const std::string& key);

/// The measurement a demand rests on: the newest of the drive alone with a sequential pattern (read before
/// write at the same date), or nullptr.
const Measurement* latest_alone(const DriveRecord& d);

/// How a measurement is worded, the one rule for `usbsat history` and a measured demand's basis: its job,
/// "load read 128k QD1" (", 2 at once" for a group), and its link, "usb4-port1, USB 3.2 Gen 1 UAS".
std::string job_text(const Measurement& m);
std::string link_text(const Measurement& m);
/// A rate and protocol as a measurement records them, worded: "USB 3.2 Gen 1 UAS" (link_text without the
/// connector).
std::string rate_text(const std::string& rate, const std::string& protocol);

/// The store's resource plateaus as the capacity model takes them (topology::CapacityModel::calibrated).
std::map<std::string, topology::Calibration, std::less<>> calibrations(const Store& s);

}  // namespace usbsat::history

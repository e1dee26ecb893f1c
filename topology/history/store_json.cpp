// The history store's JSON document: writing, and strict reading (store_json.hpp).
#include "topology/history/store_json.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace usbsat::history {
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

/// A problem at a place in the document: the reader's one exception, turned into ParsedStore::error.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Limits on what one value may be: the store's own writer stays far inside them.
constexpr std::size_t kMaxString = 512;
constexpr std::size_t kMaxGroup = 64;
constexpr double kMaxMbs = 1e6;
constexpr double kMaxIops = 1e9;

const Json& field(const Json& o, const std::string& at, const char* key) {
  if (!o.is_object()) throw Bad(at + ": not an object");
  const auto it = o.find(key);
  if (it == o.end()) throw Bad(fmt::format("{}.{}: missing", at, key));
  return *it;
}

std::string text(const Json& o, const std::string& at, const char* key) {
  const auto& v = field(o, at, key);
  if (!v.is_string()) throw Bad(fmt::format("{}.{}: not a string", at, key));
  const auto& s = v.get_ref<const std::string&>();
  if (s.size() > kMaxString) throw Bad(fmt::format("{}.{}: longer than {} bytes", at, key, kMaxString));
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) throw Bad(fmt::format("{}.{}: a control character", at, key));
  return s;
}

double number(const Json& o, const std::string& at, const char* key, double max) {
  const auto& v = field(o, at, key);
  if (!v.is_number()) throw Bad(fmt::format("{}.{}: not a number", at, key));
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0 || d > max)
    throw Bad(fmt::format("{}.{}: out of range (0 to {})", at, key, max));
  return d;
}

std::uint64_t whole(const Json& o, const std::string& at, const char* key, double max) {
  const auto& v = field(o, at, key);
  if (!v.is_number_integer() && !v.is_number_unsigned())
    throw Bad(fmt::format("{}.{}: not an integer", at, key));
  return static_cast<std::uint64_t>(number(o, at, key, max));
}

const Json& array(const Json& o, const std::string& at, const char* key, std::size_t max) {
  const auto& v = field(o, at, key);
  if (!v.is_array()) throw Bad(fmt::format("{}.{}: not an array", at, key));
  if (v.size() > max) throw Bad(fmt::format("{}.{}: more than {} entries", at, key, max));
  return v;
}

std::vector<std::string> texts(const Json& o, const std::string& at, const char* key) {
  std::vector<std::string> out;
  const auto& a = array(o, at, key, kMaxGroup);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Json wrap{{"v", a[i]}};
    out.push_back(text(wrap, fmt::format("{}.{}[{}]", at, key, i), "v"));
  }
  return out;
}

Measurement read_measurement(const Json& j, const std::string& at) {
  Measurement m;
  m.date = text(j, at, "date");
  m.version = text(j, at, "version");
  m.command = text(j, at, "command");
  m.pattern = text(j, at, "pattern");
  m.block_size = whole(j, at, "block_size", 1u << 30);
  m.queue_depth = static_cast<unsigned>(whole(j, at, "queue_depth", 65535));
  m.group = texts(j, at, "group");
  m.mbs = number(j, at, "mbs", kMaxMbs);
  m.iops = number(j, at, "iops", kMaxIops);
  m.device = text(j, at, "device");
  m.connector = text(j, at, "connector");
  m.rate = text(j, at, "rate");
  m.protocol = text(j, at, "protocol");
  m.controller = text(j, at, "controller");
  return m;
}

DriveRecord read_drive(const Json& j, const std::string& at) {
  DriveRecord d;
  d.key = text(j, at, "key");
  d.vid_pid = text(j, at, "vid_pid");
  d.serial = text(j, at, "serial");
  d.size_bytes = whole(j, at, "size_bytes", 9.2e18);
  d.model = text(j, at, "model");
  if (d.key != drive_key(d.vid_pid, d.serial, d.size_bytes))
    throw Bad(at + ".key: does not match vid_pid, serial and size_bytes");
  const auto& ms = array(j, at, "measurements", kMaxMeasurementsPerDrive);
  for (std::size_t i = 0; i < ms.size(); ++i)
    d.measurements.push_back(read_measurement(ms[i], fmt::format("{}.measurements[{}]", at, i)));
  return d;
}

ResourceRecord read_resource(const Json& j, const std::string& at) {
  ResourceRecord r;
  r.id = text(j, at, "id");
  r.identity = text(j, at, "identity");
  r.kind = text(j, at, "kind");
  r.label = text(j, at, "label");
  r.measured_mbs = number(j, at, "measured_mbs", kMaxMbs);
  if (!field(j, at, "model_mbs").is_null()) r.model_mbs = number(j, at, "model_mbs", kMaxMbs);
  if (!field(j, at, "at_least").is_boolean()) throw Bad(at + ".at_least: not true or false");
  r.at_least = field(j, at, "at_least").get<bool>();
  r.date = text(j, at, "date");
  r.version = text(j, at, "version");
  r.drives = texts(j, at, "drives");
  return r;
}

OJson measurement_json(const Measurement& m) {
  return OJson{{"date", m.date},
               {"version", m.version},
               {"command", m.command},
               {"pattern", m.pattern},
               {"block_size", m.block_size},
               {"queue_depth", m.queue_depth},
               {"group", m.group},
               {"mbs", m.mbs},
               {"iops", m.iops},
               {"device", m.device},
               {"connector", m.connector},
               {"rate", m.rate},
               {"protocol", m.protocol},
               {"controller", m.controller}};
}

}  // namespace

OJson to_json(const Store& s) {
  OJson drives = OJson::array(), resources = OJson::array();
  for (const auto& d : s.drives) {
    OJson ms = OJson::array();
    for (const auto& m : d.measurements) ms.push_back(measurement_json(m));
    drives.push_back(OJson{{"key", d.key},
                           {"vid_pid", d.vid_pid},
                           {"serial", d.serial},
                           {"size_bytes", d.size_bytes},
                           {"model", d.model},
                           {"measurements", std::move(ms)}});
  }
  for (const auto& r : s.resources)
    resources.push_back(OJson{{"id", r.id},
                              {"identity", r.identity},
                              {"kind", r.kind},
                              {"label", r.label},
                              {"measured_mbs", r.measured_mbs},
                              {"model_mbs", r.model_mbs ? OJson(*r.model_mbs) : OJson(nullptr)},
                              {"at_least", r.at_least},
                              {"date", r.date},
                              {"version", r.version},
                              {"drives", r.drives}});
  OJson doc = OJson::object();
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["drives"] = std::move(drives);
  doc["resources"] = std::move(resources);
  return doc;
}

std::string write_store(const Store& s) {
  return to_json(s).dump(2) + "\n";
}

ParsedStore parse_store(const Json& doc) {
  ParsedStore out;
  try {
    if (!doc.is_object()) throw Bad("not a JSON object");
    if (text(doc, "document", "format") != kFormat) throw Bad("not a usbsat history (format)");
    const auto& v = field(doc, "document", "version");
    if (!v.is_number_integer()) throw Bad("version: not an integer");
    if (v.get<long long>() != kVersion) {
      out.foreign_version = true;
      throw Bad(fmt::format("version {}; this usbsat reads version {}", v.dump(), kVersion));
    }
    Store s;
    const auto& drives = array(doc, "document", "drives", kMaxDrives);
    for (std::size_t i = 0; i < drives.size(); ++i)
      s.drives.push_back(read_drive(drives[i], fmt::format("drives[{}]", i)));
    const auto& res = array(doc, "document", "resources", kMaxResources);
    for (std::size_t i = 0; i < res.size(); ++i)
      s.resources.push_back(read_resource(res[i], fmt::format("resources[{}]", i)));
    out.store = std::move(s);
  } catch (const Bad& e) {
    out.error = e.what();
  }
  return out;
}

ParsedStore parse_store_text(std::string_view text) {
  if (text.size() > kMaxStoreBytes)
    return {std::nullopt, fmt::format("larger than {} MiB", kMaxStoreBytes >> 20)};
  const Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) return {std::nullopt, "not valid JSON (truncated or corrupt)"};
  return parse_store(doc);
}

}  // namespace usbsat::history

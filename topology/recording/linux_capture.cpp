#include "topology/recording/linux_capture.hpp"

#include <array>
#include <string_view>

#include <nlohmann/json.hpp>

#include "topology/recording/recording_error.hpp"

namespace usbsat::topology::recording {
namespace {

using nlohmann::json;

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// nlohmann refuses to dump invalid UTF-8 (type_error 316): that is the test for "is it a JSON string".
bool valid_utf8(const std::string& s) {
  try {
    (void)json(s).dump();
    return true;
  } catch (const json::type_error&) {
    return false;
  }
}

json text_json(const std::string& s) {
  return valid_utf8(s) ? json(s) : json{{"base64", base64_encode(s)}};
}
json opt_text_json(const std::optional<std::string>& s) {
  return s ? text_json(*s) : json(nullptr);
}

[[noreturn]] void bad(const std::string& where, std::string_view what) {
  throw RecordingError("data" + where + ": " + std::string(what));
}

std::string key_path(const std::string& where, const std::string& key) {
  return where + "[\"" + key + "\"]";
}

const json& member(const json& j, const std::string& where, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) bad(where, std::string("missing key \"") + key + "\"");
  return *it;
}
const json& object(const json& j, const std::string& where) {
  if (!j.is_object()) bad(where, "expected an object");
  return j;
}
const json& array(const json& j, const std::string& where) {
  if (!j.is_array()) bad(where, "expected an array");
  return j;
}
std::string string(const json& j, const std::string& where) {
  if (!j.is_string()) bad(where, "expected a string");
  return j.get<std::string>();
}
std::string text(const json& j, const std::string& where) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object() && j.size() == 1 && j.contains("base64") && j["base64"].is_string())
    if (auto b = base64_decode(j["base64"].get_ref<const std::string&>())) return *b;
  bad(where, "expected a string or {\"base64\": ...}");
}
std::optional<std::string> opt_text(const json& j, const std::string& where) {
  if (j.is_null()) return std::nullopt;
  return text(j, where);
}
std::optional<std::string> opt_bytes(const json& j, const std::string& where) {
  if (j.is_null()) return std::nullopt;
  if (auto b = base64_decode(string(j, where))) return b;
  bad(where, "not valid base64");
}

json answers_json(const AnswersByPath& a, bool binary) {
  json out = json::object();
  for (const auto& [path, names] : a) {
    json& o = out[path] = json::object();
    for (const auto& [name, v] : names)
      o[name] = !v ? json(nullptr) : binary ? json(base64_encode(*v)) : text_json(*v);
  }
  return out;
}
AnswersByPath answers_from(const json& j, const std::string& where, bool binary) {
  AnswersByPath out;
  for (const auto& [path, names] : object(j, where).items()) {
    const std::string w = key_path(where, path);
    auto& dst = out[path];
    for (const auto& [name, v] : object(names, w).items())
      dst[name] = binary ? opt_bytes(v, key_path(w, name)) : opt_text(v, key_path(w, name));
  }
  return out;
}

json device_json(const RawDevice& d) {
  json props = json::object();
  for (const auto& [k, v] : d.properties) props[k] = text_json(v);
  return {{"subsystem", text_json(d.subsystem)}, {"devtype", text_json(d.devtype)},
          {"sysname", text_json(d.sysname)},     {"driver", text_json(d.driver)},
          {"devnode", text_json(d.devnode)},     {"parent", opt_text_json(d.parent)},
          {"properties", std::move(props)}};
}
RawDevice device_from(const std::string& syspath, const json& j, const std::string& w) {
  object(j, w);
  RawDevice d;
  d.syspath = syspath;
  d.subsystem = text(member(j, w, "subsystem"), w + ".subsystem");
  d.devtype = text(member(j, w, "devtype"), w + ".devtype");
  d.sysname = text(member(j, w, "sysname"), w + ".sysname");
  d.driver = text(member(j, w, "driver"), w + ".driver");
  d.devnode = text(member(j, w, "devnode"), w + ".devnode");
  d.parent = opt_text(member(j, w, "parent"), w + ".parent");
  for (const auto& [k, v] : object(member(j, w, "properties"), w + ".properties").items())
    d.properties[k] = text(v, key_path(w + ".properties", k));
  return d;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k)
      v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t v = 0;
    int pad = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=') {
        // Padding only at the very end, in the last one or two places.
        if (i + 4 != text.size() || k < 2) return std::nullopt;
        ++pad;
        v <<= 6;
        continue;
      }
      if (pad) return std::nullopt;
      const auto pos = kAlphabet.find(c);
      if (pos == std::string_view::npos) return std::nullopt;
      v = (v << 6) | static_cast<std::uint32_t>(pos);
    }
    for (int k = 0; k < 3 - pad; ++k) out += static_cast<char>((v >> (16 - 8 * k)) & 0xff);
  }
  return out;
}

nlohmann::json to_json(const LinuxCapture& c) {
  json enumerated = json::object();
  for (const auto& [subsystem, paths] : c.enumerated) enumerated[subsystem] = paths;
  json devices = json::object();
  for (const auto& [path, d] : c.devices) devices[path] = d ? device_json(*d) : json(nullptr);
  json lists = json::object();
  for (const auto& [path, names] : c.lists) {
    json& o = lists[path] = json::object();
    for (const auto& [name, entries] : names) {
      json& a = o[name] = json::array();
      for (const auto& e : entries) a.push_back(text_json(e));
    }
  }
  json hwdb = json::object();
  for (const auto& [key, entries] : c.hwdb) {
    json& a = hwdb[key] = json::array();
    for (const auto& e : entries) a.push_back(json::array({text_json(e.key), text_json(e.value)}));
  }
  json files = json::object();
  for (const auto& [path, t] : c.files) files[path] = opt_text_json(t);
  json problems = json::array();
  for (const auto& [call, diags] : c.read_problems)
    for (const auto& d : diags)
      problems.push_back({{"call", call},
                          {"severity", to_string(d.severity)},
                          {"where", text_json(d.where)},
                          {"message", text_json(d.message)}});
  return {{"enumerate", std::move(enumerated)},
          {"devices", std::move(devices)},
          {"attributes", answers_json(c.attributes, false)},
          {"binary_attributes", answers_json(c.binary_attributes, true)},
          {"links", answers_json(c.links, false)},
          {"lists", std::move(lists)},
          {"hwdb", std::move(hwdb)},
          {"files", std::move(files)},
          {"read_problems", std::move(problems)}};
}

LinuxCapture linux_capture_from_json(const nlohmann::json& data) {
  object(data, "");
  LinuxCapture c;
  for (const auto& [subsystem, paths] : object(member(data, "", "enumerate"), ".enumerate").items()) {
    const std::string w = key_path(".enumerate", subsystem);
    auto& dst = c.enumerated[subsystem];
    for (const auto& p : array(paths, w)) dst.push_back(string(p, w + "[]"));
  }
  for (const auto& [path, d] : object(member(data, "", "devices"), ".devices").items()) {
    const std::string w = key_path(".devices", path);
    c.devices[path] = d.is_null() ? std::nullopt : std::optional<RawDevice>(device_from(path, d, w));
  }
  // Every enumerated device must have its record: the scan reads it from the enumeration.
  for (const auto& [subsystem, paths] : c.enumerated)
    for (const auto& p : paths) {
      auto it = c.devices.find(p);
      if (it == c.devices.end() || !it->second)
        bad(key_path(".enumerate", subsystem), "lists " + p + ", which has no record under \"devices\"");
    }
  c.attributes = answers_from(member(data, "", "attributes"), ".attributes", false);
  c.binary_attributes = answers_from(member(data, "", "binary_attributes"), ".binary_attributes", true);
  c.links = answers_from(member(data, "", "links"), ".links", false);
  for (const auto& [path, names] : object(member(data, "", "lists"), ".lists").items()) {
    const std::string w = key_path(".lists", path);
    for (const auto& [name, entries] : object(names, w).items()) {
      auto& dst = c.lists[path][name];
      for (const auto& e : array(entries, key_path(w, name)))
        dst.push_back(text(e, key_path(w, name) + "[]"));
    }
  }
  for (const auto& [key, entries] : object(member(data, "", "hwdb"), ".hwdb").items()) {
    const std::string w = key_path(".hwdb", key);
    auto& dst = c.hwdb[key];
    for (const auto& e : array(entries, w)) {
      if (!e.is_array() || e.size() != 2) bad(w, "expected [key, value] pairs");
      dst.push_back({text(e[0], w + "[]"), text(e[1], w + "[]")});
    }
  }
  for (const auto& [path, t] : object(member(data, "", "files"), ".files").items())
    c.files[path] = opt_text(t, key_path(".files", path));
  for (const auto& p : array(member(data, "", "read_problems"), ".read_problems")) {
    const std::string w = ".read_problems[]";
    object(p, w);
    const json& call = member(p, w, "call");
    if (!call.is_number_unsigned()) bad(w + ".call", "expected a non-negative integer");
    const std::string sev = string(member(p, w, "severity"), w + ".severity");
    Diagnostic d;
    if (const auto parsed = parse_severity(sev))
      d.severity = *parsed;
    else
      bad(w + ".severity", "expected \"info\", \"warning\" or \"error\"");
    d.where = text(member(p, w, "where"), w + ".where");
    d.message = text(member(p, w, "message"), w + ".message");
    c.read_problems[call.get<std::size_t>()].push_back(std::move(d));
  }
  return c;
}

}  // namespace usbsat::topology::recording

// One field list per snapshot struct; a reading and a writing visitor walk it.
#include "topology/windows/snapshot_json.hpp"

#include <limits>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "topology/model/errors.hpp"
#include "topology/windows/snapshot_fields.hpp"

namespace usbsat::topology::windows {
namespace {

using nlohmann::json;
using snapshot_fields::fields;
using snapshot_fields::is_optional;
using snapshot_fields::is_vector;

/// Reads one object's fields; a mistyped value stays unknown and becomes a warning at its JSON path.
class Reader {
 public:
  Reader(const json& object, std::string path, std::vector<Diagnostic>& diags)
      : o_(object), path_(std::move(path)), diags_(diags) {}

  template <class T>
  void operator()(const char* key, T& field) {
    auto it = o_.find(key);
    if (it == o_.end() || it->is_null()) return;
    read(*it, path_ + "/" + key, field);
  }

 private:
  void bad(const std::string& at, std::string_view expected) {
    diags_.push_back({Severity::Warning, "recording" + at,
                      "is not " + std::string(expected) + "; the value is treated as unknown"});
  }

  template <class T>
  bool read(const json& j, const std::string& at, T& out) {
    if constexpr (is_optional<T>::value) {
      typename T::value_type v{};
      if (read(j, at, v)) out = std::move(v);
      return out.has_value();
    } else if constexpr (is_vector<T>::value) {
      if (!j.is_array()) return bad(at, "an array"), false;
      for (std::size_t i = 0; i < j.size(); ++i) {
        typename T::value_type v{};
        if (read(j[i], at + "/" + std::to_string(i), v)) out.push_back(std::move(v));
      }
      return true;
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!j.is_string()) return bad(at, "a string"), false;
      out = j.get<std::string>();
      return true;
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!j.is_boolean()) return bad(at, "true or false"), false;
      out = j.get<bool>();
      return true;
    } else if constexpr (std::is_integral_v<T>) {
      if (!j.is_number_integer() ||
          (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() < 0))
        return bad(at, "a non-negative integer"), false;
      const auto v = j.get<std::uint64_t>();
      if (v > std::numeric_limits<T>::max()) return bad(at, "an integer in range"), false;
      out = static_cast<T>(v);
      return true;
    } else {
      if (!j.is_object()) return bad(at, "an object"), false;
      Reader r(j, at, diags_);
      fields(r, out);
      return true;
    }
  }

  const json& o_;
  std::string path_;
  std::vector<Diagnostic>& diags_;
};

/// Writes one object's fields; unknown values are left out.
class Writer {
 public:
  explicit Writer(json& object) : o_(object) {}

  template <class T>
  void operator()(const char* key, const T& field) {
    if constexpr (is_optional<T>::value) {
      if (field) o_[key] = value(*field);
    } else if constexpr (is_vector<T>::value) {
      if (!field.empty()) o_[key] = value(field);
    } else {
      o_[key] = value(field);
    }
  }

 private:
  template <class T>
  static json value(const T& v) {
    if constexpr (is_vector<T>::value) {
      json a = json::array();
      for (const auto& e : v) a.push_back(value(e));
      return a;
    } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>) {
      return json(v);
    } else {
      json o = json::object();
      Writer w(o);
      fields(w, v);
      return o;
    }
  }
  json& o_;
};

}  // namespace

WindowsSnapshot snapshot_from_json(const json& data, std::vector<Diagnostic>& diagnostics) {
  if (!data.is_object()) throw ScanError("the Windows recording's data is not a JSON object");
  WindowsSnapshot s;
  Reader r(data, "", diagnostics);
  fields(r, s);
  return s;
}

json snapshot_to_json(const WindowsSnapshot& s) {
  json o = json::object();
  Writer w(o);
  fields(w, s);
  return o;
}

}  // namespace usbsat::topology::windows

// One field list per snapshot struct; a reading and a writing visitor walk it.
#include "topology/windows/snapshot_json.hpp"

#include <limits>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "topology/errors.hpp"

namespace usbsat::topology::windows {
namespace {

using nlohmann::json;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

// ---- the field lists (the JSON keys are the struct's field names) ----
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, PcieLinkProps> {
  v("current_speed", p.current_speed);
  v("current_width", p.current_width);
  v("max_speed", p.max_speed);
  v("max_width", p.max_width);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, PciFunction> {
  v("instance_id", p.instance_id);
  v("hardware_ids", p.hardware_ids);
  v("compatible_ids", p.compatible_ids);
  v("location_info", p.location_info);
  v("location_path", p.location_path);
  v("service", p.service);
  v("description", p.description);
  v("manufacturer", p.manufacturer);
  v("link", p.link);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbProtocols> {
  v("usb110", p.usb110);
  v("usb200", p.usb200);
  v("usb300", p.usb300);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbPort> {
  v("number", p.number);
  v("connection_status", p.connection_status);
  v("speed", p.speed);
  v("protocols", p.protocols);
  v("operating_at_super_speed_or_higher", p.operating_at_super_speed_or_higher);
  v("super_speed_capable_or_higher", p.super_speed_capable_or_higher);
  v("operating_at_super_speed_plus_or_higher", p.operating_at_super_speed_plus_or_higher);
  v("super_speed_plus_capable_or_higher", p.super_speed_plus_capable_or_higher);
  v("companion_index", p.companion_index);
  v("companion_port", p.companion_port);
  v("companion_hub", p.companion_hub);
  v("user_connectable", p.user_connectable);
  v("debug_capable", p.debug_capable);
  v("type_c", p.type_c);
  v("device", p.device);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbHub> {
  v("symbolic_link", p.symbolic_link);
  v("hub_type", p.hub_type);
  v("number_of_ports", p.number_of_ports);
  v("ports", p.ports);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbFunction> {
  v("interface_number", p.interface_number);
  v("instance_id", p.instance_id);
  v("service", p.service);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, UsbDevice> {
  v("instance_id", p.instance_id);
  v("service", p.service);
  v("description", p.description);
  v("location_info", p.location_info);
  v("location_path", p.location_path);
  v("device_descriptor", p.device_descriptor);
  v("configuration_descriptor", p.configuration_descriptor);
  v("bos_descriptor", p.bos_descriptor);
  v("manufacturer", p.manufacturer);
  v("product", p.product);
  v("serial", p.serial);
  v("current_configuration", p.current_configuration);
  v("functions", p.functions);
  v("hub", p.hub);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, HostController> {
  v("pci", p.pci);
  v("upstream", p.upstream);
  v("root_hub_instance_id", p.root_hub_instance_id);
  v("root_hub", p.root_hub);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, Volume> {
  v("name", p.name);
  v("mount_points", p.mount_points);
  v("size_bytes", p.size_bytes);
  v("filesystem", p.filesystem);
  v("partition_number", p.partition_number);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, ScsiAddress> {
  v("port", p.port);
  v("path", p.path);
  v("target", p.target);
  v("lun", p.lun);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, Disk> {
  v("device_number", p.device_number);
  v("instance_id", p.instance_id);
  v("ancestors", p.ancestors);
  v("bus_type", p.bus_type);
  v("vendor", p.vendor);
  v("product", p.product);
  v("revision", p.revision);
  v("serial", p.serial);
  v("size_bytes", p.size_bytes);
  v("removable", p.removable);
  v("incurs_seek_penalty", p.incurs_seek_penalty);
  v("read_only", p.read_only);
  v("system_disk", p.system_disk);
  v("boot_disk", p.boot_disk);
  v("scsi_address", p.scsi_address);
  v("logical_sector_bytes", p.logical_sector_bytes);
  v("physical_sector_bytes", p.physical_sector_bytes);
  v("max_transfer_bytes", p.max_transfer_bytes);
  v("volumes", p.volumes);
}
template <class V, class S>
void fields(V& v, S& p) requires std::is_same_v<std::remove_const_t<S>, WindowsSnapshot> {
  v("os_version", p.os_version);
  v("controllers", p.controllers);
  v("disks", p.disks);
}

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

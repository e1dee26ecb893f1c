#include "topology/scan/safe_source.hpp"

#include "topology/words/escape.hpp"

namespace usbsat::topology {
namespace {
std::optional<std::string> safe(std::optional<std::string> v) {
  if (v) *v = trim_and_escape_move(std::move(*v));
  return v;
}
}  // namespace

std::string SafeSource::safe_path(std::string raw) {
  if (is_printable_ascii(raw)) return raw;
  std::string out = escape_unprintable(raw);
  if (out == raw) return out;
  // Escaping never adds or removes a '/', so the prefixes of both forms end at the same components.
  for (std::size_t r = 0, s = 0;;) {
    r = raw.find('/', r + 1);
    s = out.find('/', s + 1);
    const auto raw_prefix = raw.substr(0, r);
    auto safe_prefix = out.substr(0, s);
    if (safe_prefix != raw_prefix) raw_.emplace(std::move(safe_prefix), std::string(raw_prefix));
    if (r == std::string_view::npos || s == std::string::npos) break;
  }
  return out;
}

std::string SafeSource::raw_path(std::string_view safe) const {
  if (raw_.empty()) return std::string(safe);
  for (auto end = safe.size();; end = safe.rfind('/', end - 1)) {
    if (auto it = raw_.find(safe.substr(0, end)); it != raw_.end())
      return it->second + std::string(safe.substr(end));
    if (end == 0 || end == std::string_view::npos) return std::string(safe);
  }
}

RawDevice SafeSource::safe_device(RawDevice r) {
  r.syspath = safe_path(std::move(r.syspath));
  r.sysname = safe_path(std::move(r.sysname));
  r.devnode = safe_path(std::move(r.devnode));
  if (r.parent) r.parent = safe_path(std::move(*r.parent));
  r.subsystem = trim_and_escape_move(std::move(r.subsystem));
  r.devtype = trim_and_escape_move(std::move(r.devtype));
  r.driver = trim_and_escape_move(std::move(r.driver));
  // The properties are rebuilt only when a key needs escaping (keys order the map); values in place.
  bool keys_safe = true;
  for (auto& [key, value] : r.properties) {
    keys_safe = keys_safe && is_trimmed_printable_ascii(key);
    value = trim_and_escape_move(std::move(value));
  }
  if (!keys_safe) {
    decltype(r.properties) props;
    for (auto& [key, value] : r.properties) props.emplace(trim_and_escape(key), std::move(value));
    r.properties = std::move(props);
  }
  return r;
}

std::vector<RawDevice> SafeSource::enumerate(std::string_view subsystem) {
  auto out = inner_.enumerate(subsystem);
  for (auto& r : out) r = safe_device(std::move(r));
  return out;
}

std::optional<RawDevice> SafeSource::device(std::string_view syspath) {
  auto r = inner_.device(raw_path(syspath));
  return r ? std::optional<RawDevice>(safe_device(std::move(*r))) : std::nullopt;
}

std::optional<std::string> SafeSource::attribute(std::string_view syspath, std::string_view name) {
  return safe(inner_.attribute(raw_path(syspath), raw_path(name)));
}

std::optional<std::string> SafeSource::binary_attribute(std::string_view syspath, std::string_view name) {
  return inner_.binary_attribute(raw_path(syspath), raw_path(name));
}

std::optional<std::string> SafeSource::link_target(std::string_view syspath, std::string_view name) {
  auto target = inner_.link_target(raw_path(syspath), raw_path(name));
  return target ? std::optional<std::string>(safe_path(std::move(*target))) : std::nullopt;
}

std::vector<std::string> SafeSource::list(std::string_view syspath, std::string_view name) {
  const std::string dir = raw_path(syspath);
  auto entries = inner_.list(dir, raw_path(name));
  for (auto& e : entries) {
    std::string escaped = escape_unprintable(e);
    // An entry becomes part of a path ("<dir>/<entry>") or a name asked about below the directory.
    if (escaped != e) {
      raw_.emplace(escaped, e);
      raw_.emplace(std::string(syspath) + "/" + escaped, dir + "/" + e);
    }
    e = std::move(escaped);
  }
  return entries;
}

std::vector<HwdbEntry> SafeSource::hwdb(std::string_view key) {
  auto entries = inner_.hwdb(key);
  for (auto& e : entries) e = HwdbEntry{trim_and_escape(e.key), trim_and_escape(e.value)};
  return entries;
}

std::optional<std::string> SafeSource::read_text_file(std::string_view path) {
  // Whole files (mountinfo) keep their lines: terminal_safe() keeps '\n' and '\t'.
  auto text = inner_.read_text_file(path);
  return text ? std::optional<std::string>(terminal_safe(*text)) : std::nullopt;
}

std::vector<Diagnostic> SafeSource::take_read_problems() {
  auto problems = inner_.take_read_problems();
  for (auto& d : problems)
    d = Diagnostic{d.severity, escape_unprintable(d.where), escape_unprintable(d.message)};
  return problems;
}

}  // namespace usbsat::topology

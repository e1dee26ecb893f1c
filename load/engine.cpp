#include "load/engine.hpp"

#include "load/errors.hpp"

namespace usbsat::load {
namespace {

// The first row is the platform's default engine.
constexpr EngineFactory kEngines[] = {
#ifdef _WIN32
    {"iocp", "overlapped I/O on an I/O completion port (default)", &make_iocp_engine},
    {"sync", "ReadFile/WriteFile at an offset, one I/O in flight per target", &make_sync_engine, true},
#else
    {"uring", "io_uring via liburing (default)", &make_uring_engine},
    {"sync", "pread/pwrite, one I/O in flight per target", &make_sync_engine, true},
#endif
    {"null", "completes instantly without I/O (engine overhead)", &make_null_engine},
};

}  // namespace

std::span<const EngineFactory> engine_table() {
  return kEngines;
}

std::string_view default_engine() {
  return kEngines[0].name;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> out;
  for (const auto& e : kEngines) out.emplace_back(e.name);
  return out;
}

std::string engine_choices() {
  std::string out;
  for (const auto& name : engine_names()) out += (out.empty() ? "" : "|") + name;
  return out;
}

const EngineFactory* find_engine(std::string_view name) {
  for (const auto& e : kEngines)
    if (e.name == name) return &e;
  return nullptr;
}

EngineChoice choose_engine(std::string_view requested) {
  const auto* row = find_engine(requested);
  if (!row) throw LoadError("unknown engine '" + std::string(requested) + "'");
#ifndef _WIN32
  if (requested == "uring" && !uring_available())
    return {"sync", "io_uring is unavailable here; using the sync engine (pread/pwrite)",
            find_engine("sync")->synchronous};
#endif
  return {std::string(requested), {}, row->synchronous};
}

}  // namespace usbsat::load

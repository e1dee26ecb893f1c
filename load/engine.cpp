#include "load/engine.hpp"

#include "load/errors.hpp"

namespace usbsat::load {
namespace {

constexpr EngineFactory kEngines[] = {
    {"uring", "io_uring via liburing (default)", &make_uring_engine},
    {"sync", "pread/pwrite, one I/O in flight per target", &make_sync_engine},
    {"null", "completes instantly without I/O (engine overhead)", &make_null_engine},
};

}  // namespace

std::span<const EngineFactory> engine_table() { return kEngines; }

const EngineFactory* find_engine(std::string_view name) {
  for (const auto& e : kEngines)
    if (e.name == name) return &e;
  return nullptr;
}

EngineChoice choose_engine(std::string_view requested) {
  if (!find_engine(requested)) throw LoadError("unknown engine '" + std::string(requested) + "'");
  if (requested == "uring" && !uring_available())
    return {"sync", "io_uring is unavailable here; using the sync engine (pread/pwrite)"};
  return {std::string(requested), {}};
}

}  // namespace usbsat::load

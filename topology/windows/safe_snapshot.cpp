#include "topology/windows/safe_snapshot.hpp"

#include <string>
#include <string_view>

#include "topology/windows/snapshot_fields.hpp"
#include "topology/words/escape.hpp"

namespace usbsat::topology::windows {
namespace {

using snapshot_fields::fields;
using snapshot_fields::is_optional;
using snapshot_fields::is_vector;

/// Walks every field (snapshot_fields.hpp) and sanitises every string but the descriptors.
struct Sanitise {
  template <class T>
  void operator()(std::string_view key, T& field) {
    if (key.ends_with("_descriptor")) return;
    visit(field);
  }

  template <class T>
  void visit(T& v) {
    if constexpr (is_optional<T>::value) {
      if (v) visit(*v);
    } else if constexpr (is_vector<T>::value) {
      for (auto& e : v) visit(e);
    } else if constexpr (std::is_same_v<T, std::string>) {
      v = trim_and_escape(v);
    } else if constexpr (std::is_class_v<T>) {
      fields(*this, v);
    }
  }
};

}  // namespace

WindowsSnapshot safe_snapshot(WindowsSnapshot snapshot) {
  Sanitise s;
  s.visit(snapshot);
  return snapshot;
}

}  // namespace usbsat::topology::windows

#pragma once
/// Page-aligned I/O buffers (what O_DIRECT needs), owned by a unique_ptr with a stateless free() deleter.
#include <cstddef>
#include <cstdint>
#include <memory>

namespace usbsat::load {

struct FreeDeleter {
  void operator()(std::byte* p) const;
};
using AlignedBytes = std::unique_ptr<std::byte[], FreeDeleter>;

/// `size` bytes aligned to `align` (a power of two ≥ sizeof(void*)), filled with a non-zero pseudo-random
/// pattern from `seed` so writes never store zero pages. Throws std::bad_alloc.
AlignedBytes alloc_io_buffers(std::size_t size, std::size_t align, std::uint64_t seed);

}  // namespace usbsat::load

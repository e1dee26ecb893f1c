#pragma once
/// Page-aligned I/O buffers (what O_DIRECT needs), owned by a unique_ptr with a stateless free() deleter, and
/// the limit on how much of them a run may allocate.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>

namespace usbsat::load {

/// The platform part (memory_posix.cpp: posix_memalign, free, sysconf; win32/memory.cpp: _aligned_malloc,
/// _aligned_free, GlobalMemoryStatusEx): `size` bytes aligned to `align`, released by FreeDeleter. Throws
/// std::bad_alloc.
std::byte* allocate_aligned(std::size_t size, std::size_t align);
struct FreeDeleter {
  void operator()(std::byte* p) const;
};
using AlignedBytes = std::unique_ptr<std::byte[], FreeDeleter>;

/// Fills `bytes` with a non-zero pseudo-random pattern from `seed` (writes never store zero pages), a chunk
/// of kFillChunk bytes at a time, checking `stop` before each chunk. Returns how many bytes it filled: all of
/// them, or fewer when a stop was requested (a whole number of chunks, so 0 when it was requested before the
/// call).
inline constexpr std::size_t kFillChunk = std::size_t{4} << 20;  // a stop is seen within a few ms
std::size_t fill_io_pattern(std::span<std::byte> bytes, std::uint64_t seed, std::stop_token stop = {});

/// `size` bytes aligned to `align` (a power of two ≥ sizeof(void*)), filled by fill_io_pattern; nullptr when
/// a stop was requested before the fill ended (big buffers take seconds to fill). Throws std::bad_alloc.
AlignedBytes alloc_io_buffers(std::size_t size, std::size_t align, std::uint64_t seed,
                              std::stop_token stop = {});

/// Default limit on the I/O buffers of one phase (block size × queue depth × targets running at once).
inline constexpr std::uint64_t kDefaultMaxBufferMemory = std::uint64_t{256} << 20;

/// Bytes of I/O buffers a phase allocates: `block_size` × `queue_depth` for each of `targets` at once.
std::uint64_t buffer_memory(std::uint32_t block_size, unsigned queue_depth, std::size_t targets);

/// nullopt when `needed` ≤ `limit`, else the usage error: "the I/O buffers would take 64g (bs 64m × qd 1024
/// × 1 target at once), more than the 256m limit; lower --bs or --qd, or raise --max-buffer-memory". Pure.
std::optional<std::string> check_buffer_memory(std::uint32_t block_size, unsigned queue_depth,
                                               std::size_t targets, std::uint64_t limit);

/// `--max-buffer-memory SIZE` → bytes: a size (256m, 2g) from 1m up to `physical` bytes (0: unknown, no upper
/// bound). `error` is the usage error, empty when `bytes` is set. Pure.
struct BufferLimit {
  std::uint64_t bytes = kDefaultMaxBufferMemory;
  std::string error;
};
BufferLimit parse_buffer_limit(std::string_view s, std::uint64_t physical);

/// This machine's physical memory in bytes (sysconf; GlobalMemoryStatusEx), 0 when unknown: the most
/// --max-buffer-memory may be.
std::uint64_t physical_memory();

}  // namespace usbsat::load

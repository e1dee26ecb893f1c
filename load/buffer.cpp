#include "load/buffer.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "load/job.hpp"
#include "load/offsets.hpp"

namespace usbsat::load {

std::size_t fill_io_pattern(std::span<std::byte> bytes, std::uint64_t seed, std::stop_token stop) {
  Rng rng(seed);
  for (std::size_t chunk = 0; chunk < bytes.size(); chunk += kFillChunk) {
    if (stop.stop_requested()) return chunk;
    const std::size_t end = std::min(bytes.size(), chunk + kFillChunk);
    for (std::size_t i = chunk; i + 8 <= end; i += 8) {
      const std::uint64_t v = rng.next() | 0x0101010101010101ULL;  // no zero byte anywhere
      std::memcpy(bytes.data() + i, &v, 8);
    }
  }
  return bytes.size();
}

AlignedBytes alloc_io_buffers(std::size_t size, std::size_t align, std::uint64_t seed, std::stop_token stop) {
  if (size == 0) size = align;
  AlignedBytes buf(allocate_aligned(size, align));
  if (fill_io_pattern({buf.get(), size}, seed, stop) < size) return nullptr;
  return buf;
}

std::uint64_t buffer_memory(std::uint32_t block_size, unsigned queue_depth, std::size_t targets) {
  return std::uint64_t{block_size} * queue_depth *
         targets;  // ≤ 2^32 × 2^32 × targets: fine for any real count
}

std::optional<std::string> check_buffer_memory(std::uint32_t block_size, unsigned queue_depth,
                                               std::size_t targets, std::uint64_t limit) {
  const std::uint64_t needed = buffer_memory(block_size, queue_depth, targets);
  if (needed <= limit) return std::nullopt;
  return "the I/O buffers would take " + format_binary_size(needed) + " (bs " +
         format_binary_size(block_size) + " × qd " + std::to_string(queue_depth) + " × " +
         std::to_string(targets) + (targets == 1 ? " target" : " targets") + " at once), more than the " +
         format_binary_size(limit) +
         " limit; lower --bs or --qd (or run fewer targets at once), or raise --max-buffer-memory";
}

BufferLimit parse_buffer_limit(std::string_view s, std::uint64_t physical) {
  const auto v = parse_size(s);
  if (!v || *v < (std::uint64_t{1} << 20))
    return {0,
            "bad --max-buffer-memory '" + std::string(s) + "': give a size of at least 1m, e.g. 512m or 2g"};
  if (physical && *v > physical)
    return {0, "--max-buffer-memory " + std::string(s) + " is more than this machine's memory (" +
                   std::to_string(physical >> 20) + "m)"};
  return {*v, {}};
}

}  // namespace usbsat::load

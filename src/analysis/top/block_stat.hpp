#pragma once
/// /sys/block/<dev>/stat (Documentation/block/stat.rst): the cumulative sectors read and written, the only
/// two of its fields `usbsat top` needs. Pure.
#include <cstdint>
#include <optional>
#include <string_view>

namespace usbsat::analysis::top {

/// Bytes moved since boot (sectors are always 512 bytes in this file, whatever the device's block size).
struct BlockIo {
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t total() const { return read_bytes + write_bytes; }
  bool operator==(const BlockIo&) const = default;
};

/// Fields 3 (sectors read) and 7 (sectors written) of a stat line, ×512; nullopt when fewer than 7 fields or
/// a field is not a decimal number.
std::optional<BlockIo> parse_block_stat(std::string_view text);

}  // namespace usbsat::analysis::top

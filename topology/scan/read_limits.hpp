#pragma once
/// The caps on what one read may return, shared by the live scan (UdevSource) and a replayed recording
/// (recording::ReplaySource), so that a recording cannot hand the program more than a live scan would read:
/// a text attribute (sysfs text attributes are at most a page), a binary one (`descriptors`: the 18-byte
/// device descriptor plus up to USB_MAXCONFIG = 8 configurations of at most 65535 bytes each;
/// `bos_descriptors` is one 65535-byte descriptor set), a text file (mountinfo).
#include <cstddef>

namespace usbsat::topology::read_limits {

inline constexpr std::size_t kTextAttribute = 64 * 1024;
inline constexpr std::size_t kBinaryAttribute = 18 + 8 * 65535;
inline constexpr std::size_t kTextFile = 16 * 1024 * 1024;

}  // namespace usbsat::topology::read_limits

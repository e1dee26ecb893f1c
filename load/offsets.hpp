#pragma once
/// Deterministic offset generation: sequential with wrap-around, or uniform random over the region's whole
/// blocks (start + k·bs, as fio's default blockalign=bs: a 4 KiB random read never straddles two 4 KiB pages
/// or physical sectors). Same (seed, region, bs) → same sequence, on every run.
#include <cstdint>

#include "load/job.hpp"

namespace usbsat::load {

/// xoshiro256** seeded through splitmix64: fast, small state, good enough for uniform offsets.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  /// Uniform in [0, n) without modulo bias worth mentioning (Lemire's multiply-shift).
  std::uint64_t below(std::uint64_t n) {
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
  }

 private:
  std::uint64_t s_[4];
};

class OffsetGenerator {
 public:
  /// `region` must hold at least one block; its start is aligned as the target needs (resolve_region).
  OffsetGenerator(Region region, std::uint32_t bs, bool random, std::uint64_t seed);
  /// The next offset: start ≤ off, off + bs ≤ start + length, (off - start) % bs == 0.
  std::uint64_t next() {
    if (random_) return region_.start + rng_.below(slots_) * bs_;
    if (pos_ + bs_ > region_.start + region_.length) pos_ = region_.start;
    const auto off = pos_;
    pos_ += bs_;
    return off;
  }

 private:
  Region region_;
  std::uint32_t bs_;
  bool random_;
  std::uint64_t slots_;
  std::uint64_t pos_;
  Rng rng_;
};

}  // namespace usbsat::load

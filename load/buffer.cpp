#include "load/buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "load/offsets.hpp"

namespace usbsat::load {

void FreeDeleter::operator()(std::byte* p) const { std::free(p); }

AlignedBytes alloc_io_buffers(std::size_t size, std::size_t align, std::uint64_t seed) {
  void* p = nullptr;
  if (size == 0) size = align;
  if (::posix_memalign(&p, align, size) != 0) throw std::bad_alloc();
  AlignedBytes buf(static_cast<std::byte*>(p));
  Rng rng(seed);
  for (std::size_t i = 0; i + 8 <= size; i += 8) {
    const std::uint64_t v = rng.next() | 0x0101010101010101ULL;  // no zero byte anywhere
    std::memcpy(buf.get() + i, &v, 8);
  }
  return buf;
}

}  // namespace usbsat::load

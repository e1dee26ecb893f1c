#include <unistd.h>

#include <cstdlib>
#include <new>

#include "load/buffer.hpp"

namespace usbsat::load {

std::byte* allocate_aligned(std::size_t size, std::size_t align) {
  void* p = nullptr;
  if (::posix_memalign(&p, align, size) != 0) throw std::bad_alloc();
  return static_cast<std::byte*>(p);
}

void FreeDeleter::operator()(std::byte* p) const {
  std::free(p);
}

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

}  // namespace usbsat::load

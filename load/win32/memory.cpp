#include <malloc.h>
#include <windows.h>

#include <new>

#include "load/buffer.hpp"

namespace usbsat::load {

std::byte* allocate_aligned(std::size_t size, std::size_t align) {
  void* p = ::_aligned_malloc(size, align);
  if (!p) throw std::bad_alloc();
  return static_cast<std::byte*>(p);
}

void FreeDeleter::operator()(std::byte* p) const {
  ::_aligned_free(p);
}

std::uint64_t physical_memory() {
  MEMORYSTATUSEX m{};
  m.dwLength = sizeof m;
  return ::GlobalMemoryStatusEx(&m) ? m.ullTotalPhys : 0;
}

}  // namespace usbsat::load

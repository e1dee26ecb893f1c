#include <unistd.h>

#include <cerrno>

#include "load/positional_io.hpp"

namespace usbsat::load {

std::int32_t transfer_at(int fd, const IoRequest& r) {
  const auto off = static_cast<off_t>(r.offset);
  ssize_t n;
  do {
    n = r.dir == IoDir::Read ? ::pread(fd, r.buffer, r.length, off) : ::pwrite(fd, r.buffer, r.length, off);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? -errno : static_cast<std::int32_t>(n);
}

}  // namespace usbsat::load

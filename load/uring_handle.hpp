#pragma once
/// RAII for the io_uring ring (G3): a stateless deleter that calls io_uring_queue_exit and frees the struct,
/// so the handle is one pointer wide. Only engine_uring.cpp includes <liburing.h>.
#include <memory>

struct io_uring;

namespace usbsat::load {

struct UringDeleter {
  void operator()(io_uring* ring) const;
};
using UringPtr = std::unique_ptr<io_uring, UringDeleter>;

}  // namespace usbsat::load

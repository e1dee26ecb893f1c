#pragma once
/// One read or write at an offset, waiting for it: the sync engine's only I/O call (engine_sync.cpp).
/// positional_io_posix.cpp: pread/pwrite; win32/positional_io.cpp: ReadFile/WriteFile with the offset in an
/// OVERLAPPED (the targets are opened FILE_FLAG_OVERLAPPED for the IOCP engine), then GetOverlappedResult.
#include <cstdint>

#include "load/engine.hpp"

namespace usbsat::load {

/// Bytes transferred (0 at the end of the target), or -errno.
std::int32_t transfer_at(int fd, const IoRequest& r);

}  // namespace usbsat::load

#include <sys/resource.h>

#include "load/cpu_time.hpp"

namespace usbsat::load {
namespace {

CpuTime usage(int who) {
  rusage ru{};
  ::getrusage(who, &ru);
  return {static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) / 1e6,
          static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) / 1e6};
}

}  // namespace

CpuTime thread_cpu() {
  return usage(RUSAGE_THREAD);
}
CpuTime process_cpu() {
  return usage(RUSAGE_SELF);
}

}  // namespace usbsat::load

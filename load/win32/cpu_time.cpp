#include <windows.h>

#include "load/cpu_time.hpp"

namespace usbsat::load {
namespace {

double seconds(const FILETIME& t) {  // 100 ns units
  return static_cast<double>((static_cast<std::uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime) / 1e7;
}

}  // namespace

CpuTime thread_cpu() {
  FILETIME created{}, exited{}, kernel{}, user{};
  if (!::GetThreadTimes(::GetCurrentThread(), &created, &exited, &kernel, &user)) return {};
  return {seconds(user), seconds(kernel)};
}

CpuTime process_cpu() {
  FILETIME created{}, exited{}, kernel{}, user{};
  if (!::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user)) return {};
  return {seconds(user), seconds(kernel)};
}

}  // namespace usbsat::load

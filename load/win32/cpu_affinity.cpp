#include <windows.h>

#include "load/cpu_affinity.hpp"

namespace usbsat::load {

// The process's processor group only (up to 64 CPUs): a thread is started in its process's group.
std::vector<unsigned> allowed_cpus() {
  std::vector<unsigned> cpus;
  DWORD_PTR process = 0, system = 0;
  if (!::GetProcessAffinityMask(::GetCurrentProcess(), &process, &system)) return cpus;
  for (unsigned cpu = 0; cpu < sizeof(DWORD_PTR) * 8; ++cpu)
    if (process & (DWORD_PTR{1} << cpu)) cpus.push_back(cpu);
  return cpus;
}

bool pin_current_thread(unsigned cpu) {
  if (cpu >= sizeof(DWORD_PTR) * 8) return false;
  return ::SetThreadAffinityMask(::GetCurrentThread(), DWORD_PTR{1} << cpu) != 0;
}

}  // namespace usbsat::load

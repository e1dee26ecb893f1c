// SignalStop on Windows: a console control handler (Ctrl-C, Ctrl-Break, the console closing). Windows calls
// it in a thread of its own, so it may request the stop directly; the mutex keeps the handler off a
// SignalStop that is being destroyed.
#include <windows.h>

#include <mutex>

#include "src/cli/signal_stop.hpp"

namespace usbsat::cli {
namespace {

std::mutex g_mutex;
std::stop_source* g_source = nullptr;
std::atomic<bool>* g_flag = nullptr;

BOOL WINAPI on_console_event(DWORD event) {
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT && event != CTRL_CLOSE_EVENT) return FALSE;
  const std::lock_guard lock(g_mutex);
  if (!g_source) return FALSE;  // not running: the default handler ends the process
  *g_flag = true;
  g_source->request_stop();
  return TRUE;
}

}  // namespace

struct SignalStop::Impl {};

SignalStop::SignalStop(std::stop_source& src) {
  {
    const std::lock_guard lock(g_mutex);
    g_source = &src;
    g_flag = &signalled_;
  }
  ::SetConsoleCtrlHandler(on_console_event, TRUE);
}

SignalStop::~SignalStop() {
  ::SetConsoleCtrlHandler(on_console_event, FALSE);
  const std::lock_guard lock(g_mutex);
  g_source = nullptr;
  g_flag = nullptr;
}

}  // namespace usbsat::cli

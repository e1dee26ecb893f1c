#pragma once
/// The I/O engine interface: three verbs plus capabilities, distilled from fio's ioengine_ops (G10). RAII
/// takes the place of init/cleanup/open_file/close_file: an engine is built for one target and one queue
/// depth and owns whatever kernel objects it needs. Engines never touch statistics (G11).
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace usbsat::load {

enum class IoDir : std::uint8_t { Read, Write };

/// One I/O. `slot` identifies the request in the worker (and the buffer it uses: buffer index == slot).
struct IoRequest {
  IoDir dir = IoDir::Read;
  std::uint32_t slot = 0;
  std::uint32_t length = 0;
  std::uint64_t offset = 0;
  void* buffer = nullptr;
};

/// A finished I/O: the request's slot and the result (bytes transferred, or -errno).
struct Completion {
  std::uint32_t slot = 0;
  std::int32_t result = 0;
};

struct Capabilities {
  bool synchronous = false;            ///< I/O completes inside submit(); the worker keeps one in flight
  bool needs_aligned_buffers = false;  ///< O_DIRECT-style alignment of buffer, offset and length
};

/// Everything an engine needs to be built: the target's fd, the queue depth, and the worker's buffers (one
/// per slot, `buffer_size` bytes each, contiguous) so engines may register them with the kernel.
struct EngineConfig {
  int fd = -1;
  unsigned depth = 1;
  std::span<std::byte> buffers;
  std::uint32_t buffer_size = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  virtual Capabilities capabilities() const = 0;
  /// Queue one request; false = busy (no room), nothing queued (fio FIO_Q_BUSY).
  virtual bool queue(const IoRequest& req) = 0;
  /// Hand queued requests to the device (fio commit). Returns how many were accepted, or -errno;
  /// -EAGAIN / -EBUSY mean "reap, then retry". An engine may defer the system call to the next reap() (the
  /// uring engine submits and waits in one io_uring_enter); requests accepted here are in flight either way.
  virtual int submit() = 0;
  /// Wait until at least `min` completions are available (or `timeout` passes) and return all that are.
  /// The span is valid until the next call on the engine.
  virtual std::span<const Completion> reap(unsigned min, std::chrono::nanoseconds timeout) = 0;
};

/// The engine could not be created here (io_uring disabled, seccomp, old kernel).
struct EngineUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// {name, factory} table (ninja kTools style; no self-registration).
struct EngineFactory {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Engine> (*make)(const EngineConfig& cfg);
  bool synchronous =
      false;  ///< its engines' Capabilities::synchronous (one I/O in flight), known before a run
};
/// This platform's engines: uring, sync, null on Linux; iocp, sync, null on Windows (engine.cpp).
std::span<const EngineFactory> engine_table();
/// The first row of engine_table(): "uring" on Linux, "iocp" on Windows.
std::string_view default_engine();
/// The names in table order, and joined for a help text ("uring|sync|null").
std::vector<std::string> engine_names();
std::string engine_choices();
const EngineFactory* find_engine(std::string_view name);

std::unique_ptr<Engine> make_uring_engine(const EngineConfig& cfg);
std::unique_ptr<Engine> make_sync_engine(const EngineConfig& cfg);
std::unique_ptr<Engine> make_null_engine(const EngineConfig& cfg);
/// Windows only (engine_iocp.cpp): overlapped ReadFile/WriteFile on the target's HANDLE, completions from an
/// I/O completion port (GetQueuedCompletionStatusEx).
std::unique_ptr<Engine> make_iocp_engine(const EngineConfig& cfg);

/// True when an io_uring can be set up in this process (a tiny ring is created and destroyed).
bool uring_available();

/// The engine a run will use: `requested` unless it is "uring" and io_uring is unavailable, in which case
/// "sync" with a one-line notice. Throws LoadError for an unknown name.
struct EngineChoice {
  std::string name;
  std::string notice;
  bool synchronous = false;  ///< the chosen row's EngineFactory::synchronous
};
EngineChoice choose_engine(std::string_view requested);

}  // namespace usbsat::load

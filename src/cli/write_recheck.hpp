#pragma once
/// Write safety during a run (issue 41): the storage stack of every target a write load writes is checked
/// again every second while it runs (load::recheck_write: a member mounted, swapped on, or a new holder such
/// as a loop device attached over the image). The first refusal stops the run through `halt`; the command
/// then exits 5 with it. The check at the start stays the main guard: this one is best effort, and what was
/// written before it noticed stays written.
#include <chrono>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace usbsat::cli {

class WriteRecheck {
 public:
  /// Remembers each target's stack members now and starts checking every `interval`; no targets: no thread.
  WriteRecheck(const std::vector<std::string>& targets, std::vector<std::string> allow_write,
               std::stop_source& halt, std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~WriteRecheck();
  WriteRecheck(const WriteRecheck&) = delete;
  WriteRecheck& operator=(const WriteRecheck&) = delete;

  /// Why the run was stopped, once a check refused; nullopt while none did.
  std::optional<std::string> refusal() const;

 private:
  void watch(std::stop_token self, std::stop_source& halt, std::chrono::milliseconds interval);

  struct Target {
    std::string path;
    std::vector<std::string> members;  ///< load::stack_members() at the start
  };
  std::vector<Target> targets_;
  std::vector<std::string> allow_write_;
  mutable std::mutex mutex_;
  std::optional<std::string> refusal_;
  std::jthread thread_;  ///< last: stopped and joined before the members above go
};

}  // namespace usbsat::cli

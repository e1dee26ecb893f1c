#include "src/cli/write_recheck.hpp"

#include <utility>

#include "load/safety.hpp"

namespace usbsat::cli {

WriteRecheck::WriteRecheck(const std::vector<std::string>& targets, std::vector<std::string> allow_write,
                           std::stop_source& halt, std::chrono::milliseconds interval)
    : allow_write_(std::move(allow_write)) {
  for (const auto& t : targets) targets_.push_back({t, load::stack_members(t)});
  if (!targets_.empty())
    thread_ = std::jthread([this, &halt, interval](std::stop_token self) { watch(self, halt, interval); });
}

WriteRecheck::~WriteRecheck() {
  thread_.request_stop();
}

std::optional<std::string> WriteRecheck::refusal() const {
  const std::lock_guard lock(mutex_);
  return refusal_;
}

void WriteRecheck::watch(std::stop_token self, std::stop_source& halt, std::chrono::milliseconds interval) {
  constexpr auto kSlice = std::chrono::milliseconds(50);  // a stop is seen within this, not a whole interval
  while (!self.stop_requested() && !halt.stop_requested()) {
    for (auto waited = std::chrono::milliseconds(0); waited < interval && !self.stop_requested();
         waited += kSlice)
      std::this_thread::sleep_for(kSlice);
    if (self.stop_requested()) return;
    for (const auto& t : targets_) {
      const auto decision = load::recheck_write(t.path, allow_write_, t.members);
      if (decision.allowed) continue;
      {
        const std::lock_guard lock(mutex_);
        refusal_ = decision.reason;
      }
      halt.request_stop();
      return;
    }
  }
}

}  // namespace usbsat::cli

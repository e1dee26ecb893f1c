#pragma once
/// The drives a `plan` question names (`plan sdb sdc`, `plan --predict sdb`), checked before anything is
/// planned: each once, each a USB drive of the scan. Every problem is a usage error with a message (exit 2),
/// not a diagnostic of the plan, since the answer to a question about a drive that is not there is no
/// answer at all.
#include <optional>
#include <span>
#include <string>

namespace usbsat::analysis::plan {

/// The first drive named twice ("/dev/" stripped, so "sdb /dev/sdb" is twice), as a message; nullopt when
/// each is named once. Checked before the scan.
std::optional<std::string> repeated_device(std::span<const std::string> devices);

/// The first named drive that is none of `usb_drives` (the scan's USB drive names), as a message that lists
/// them; nullopt when all are.
std::optional<std::string> unknown_device(std::span<const std::string> devices,
                                          std::span<const std::string> usb_drives);

}  // namespace usbsat::analysis::plan

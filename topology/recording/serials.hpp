#pragma once
/// Serial numbers out of recordings (people attach them to bug reports): each serial becomes a stable
/// pseudonym, the same for the same serial on every run and machine, so a replayed scan still tells two
/// drives apart and `usbsat record` twice gives the same file.
#include <string>
#include <string_view>

#include "topology/recording/linux_capture.hpp"

namespace usbsat::topology::windows {
struct WindowsSnapshot;
}

namespace usbsat::topology::recording {

/// "h:" + the first 12 hex digits of the 64-bit FNV-1a hash of `s` ("h:" + 12 of "cbf29ce484222325" for "").
std::string pseudonym(std::string_view s);

/// Replace every serial number in `c` by its pseudonym:
///   - the value of every `serial` attribute (USB devices; any directory),
///   - the value of every device property whose name contains "SERIAL" (ID_SERIAL, ID_SERIAL_SHORT,
///     ID_USB_SERIAL, ID_SCSI_SERIAL, ...),
///   - and each of those serials (4 characters or more) where it appears inside other text: property values
///     (DEVLINKS=/dev/disk/by-id/usb-Vendor_Model_<serial>-0:0), text attributes and text files.
/// A "serial" that is a device's bus id (root hubs report their controller's PCI address, "0000:00:14.0")
/// names a device, not a person's drive, and stays. Binary attributes stay as they are: `descriptors` holds
/// only the index of the serial string descriptor (iSerialNumber), never the string itself.
void hide_serials(LinuxCapture& c);

/// The same for a Windows snapshot: every USB device's serial string descriptor and every disk's serial
/// become their pseudonyms, and each serial (4 characters or more) is replaced inside device instance IDs,
/// disk ancestors and hub symbolic links in any letter case (Windows upper-cases it in instance IDs,
/// lower-cases it in symbolic links), so the builder still ties every disk to its USB device.
void hide_serials(windows::WindowsSnapshot& s);

}  // namespace usbsat::topology::recording

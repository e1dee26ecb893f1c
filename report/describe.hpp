#pragma once
/// One-line descriptions of topology nodes shared by the text views ("0781:5567 SanDisk Cruzer Blade").
/// All device-supplied strings pass through text_safe().
#include <string>

#include "topology/connectors.hpp"
#include "topology/node.hpp"
#include "topology/topology.hpp"

namespace usbsat::report {

/// "0781:5567 SanDisk Cruzer Blade" (vendor:product ids, then manufacturer/product strings, falling back to
/// hwdb names).
std::string describe_usb_device(const topology::UsbDeviceInfo& d);
/// "0000:00:14.0 xHCI [8086:7a60] Intel Corporation Raptor Lake ... Controller".
std::string describe_controller(const topology::ControllerSummary& c);
/// "00:14.0" — the PCI address without the default domain "0000:".
std::string short_pci(const std::string& bdf);
/// "WDC WD40EFRX-68N32N0": vendor and model of a disk, empty parts skipped, text-safe.
std::string disk_model(const std::optional<std::string>& vendor, const std::optional<std::string>& model);
/// "480M", or "480M (capable 5G)" when the device could go faster (only for USB2/USB3 capabilities: a
/// low-speed device's bcdUSB 1.10 is no promise of 12M).
std::string describe_speed(std::optional<topology::UsbSpeed> speed,
                           std::optional<topology::UsbSpeed> capable);

/// Where a drive is plugged in: "port 3" on a root hub, "port 2 of hub 2-1" behind a hub; "" when `block` is
/// not below a USB port.
std::string drive_where(const topology::Topology& t, topology::Vertex block);

/// A node for sentences: "controller 0000:03:00.0 (ASM1042)", "hub 2-1 (USB3.1 Hub)", "root hub usb4",
/// "PCIe port 0000:01:00.0 (PEX 8608 upstream)".
std::string describe_node(const topology::Topology& t, topology::Vertex v);

}  // namespace usbsat::report

#pragma once
/// The drive summary: one flat record per whole-disk block device with everything a user (or doctor, plan,
/// saturate) needs to know about where it is attached and how it runs. A pure query over a const Topology;
/// this is the data behind `usbsat drives [--json]`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/base/text.hpp"  // format_vid_pid()
#include "topology/model/connectors.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::topology {

struct DriveSummary {
  Vertex block{};                    ///< the Block vertex
  std::optional<Vertex> usb_device;  ///< the USB device the disk belongs to (usb only)
  std::optional<Vertex> interface;   ///< its mass-storage interface
  std::optional<Vertex> scsi;        ///< its SCSI device (one per LUN)

  std::string dev;      ///< "sda"
  std::string devnode;  ///< "/dev/sda"
  bool usb = false;
  std::string transport;  ///< "usb", "sata", "nvme", ...

  // --- where it is attached (USB only; empty / nullopt otherwise) ---
  std::optional<std::string> port_path;       ///< the USB device's kernel name without "usb": "2-1.1"
  std::optional<ConnectorSummary> connector;  ///< the connector the USB device is plugged into
  std::vector<std::string> hub_chain;  ///< hubs strictly between the root hub and the device, root side first
  std::optional<ControllerSummary> controller;
  std::vector<PcieHopSummary>
      pcie_uplink;  ///< PCI ancestors of the controller with link attributes, nearest first

  // --- how it runs ---
  std::optional<UsbSpeed> speed;          ///< negotiated
  std::optional<UsbSpeed> capable_speed;  ///< from BOS, else bcdUSB
  bool capable_from_bos = false;
  std::optional<StorageProtocol> protocol;  ///< Uas / Bot (/ Other); nullopt for non-USB disks
  std::optional<bool> uas_capable;          ///< nullopt for non-USB disks
  std::optional<std::string> uas_blocked_reason;
  std::optional<std::string> driver;    ///< the interface's driver ("uas", "usb-storage")
  std::optional<unsigned> queue_depth;  ///< SCSI queue_depth
  std::optional<unsigned> max_sectors_kb, max_hw_sectors_kb, nr_requests;

  // --- what it is ---
  std::optional<std::string> vid_pid;   ///< "0781:558c"
  std::optional<std::string> usb_name;  ///< manufacturer + product strings of the USB device
  std::optional<std::string> vendor, model, serial;
  std::optional<std::string> hctl;  ///< "6:0:0:0"
  std::optional<std::uint64_t> size_bytes;
  std::optional<bool> rotational, removable;
  std::vector<std::string> mountpoints;  ///< of the disk and its partitions, partition order
};

/// One entry per whole-disk block device, in block_devices() order (sda, sdb, ..., nvme0n1, vda).
std::vector<DriveSummary> summarize_drives(const Topology& t);
/// The summary of one Block vertex.
DriveSummary summarize_drive(const Topology& t, Vertex block);

}  // namespace usbsat::topology

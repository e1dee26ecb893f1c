#pragma once
/// The bandwidth model: a Bandwidth unit type, one table of link capacities (USB by negotiated speed and
/// storage protocol, PCIe by generation and width), and the shared resources on a block device's path to
/// the root of the topology, USB4/Thunderbolt links and tunnels included. Everything here is pure; calibrated
/// figures replace nominal ones by handing a modified CapacityModel to the same functions.
///
/// Units: MB/s means 10^6 bytes per second everywhere (never MiB/s). A capacity is *payload* throughput,
/// what a sequential reader can move, not the signalling rate.
///
/// One header per concept: rate.hpp (the unit), tables.hpp (the tables and CapacityModel), tunnel_rates.hpp
/// (USB4/Thunderbolt arithmetic), resources.hpp (the resources on a drive's path). This one includes them
/// all.
#include "topology/capacity/rate.hpp"          // IWYU pragma: export
#include "topology/capacity/resources.hpp"     // IWYU pragma: export
#include "topology/capacity/tables.hpp"        // IWYU pragma: export
#include "topology/capacity/tunnel_rates.hpp"  // IWYU pragma: export

#pragma once
/// What each drive wants when it runs: its demand and the basis of that figure, chosen in this order
///   1. given:     a rate the user gave (`--demand sdb=170M`);
///   2. measured:  this drive's own newest sequential `load`/`saturate` result alone (topology/history), when
///   it
///                 was taken at the rate and protocol the drive has now, or when the drive rather than its
///                 link limited it then (below 80 % of that link's ceiling) and the link now carries as much;
///                 otherwise the measurement is not used, and the basis says so;
///   3. estimated: from the medium (topology/capacity/drive_estimate.hpp), never above the link's ceiling;
///   4. link ceiling: the drive's own link (topology/capacity/bandwidth.hpp).
/// Pure: the topology, the store and the capacity model in, the demands out.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/analysis/model/predict.hpp"
#include "topology/capacity/bandwidth.hpp"
#include "topology/history/store.hpp"
#include "topology/model/topology.hpp"

namespace usbsat::analysis::model {

/// A drive's demand (nullopt: unknown, its link speed unknown too) and why.
struct DriveDemand {
  std::optional<Bandwidth> demand;
  topology::Basis basis;
};

/// The basis of a demand that is the drive's link ceiling: "USB 3.2 Gen 1 UAS link" (`link`: its DriveLink);
/// the link's published basis when a published figure of its controller set that ceiling.
topology::Basis link_ceiling_basis(const topology::Resource& link);

/// The demand of the USB whole disk `block` by the order above; `store` may be nullptr (nothing measured).
DriveDemand drive_demand(const topology::Topology& t, topology::Vertex block, std::optional<Bandwidth> given,
                         const history::Store* store,
                         const topology::CapacityModel& m = topology::nominal_model());

/// A DemandSpec for each of `devs` (block names, "/dev/" accepted) with drive_demand(): `given` per drive.
/// A name that is not a block device of `t` keeps a spec without a demand (make_problem() says why).
std::vector<DemandSpec> demand_specs(const topology::Topology& t, std::span<const std::string> devs,
                                     const std::map<std::string, Bandwidth, std::less<>>& given,
                                     const history::Store* store,
                                     const topology::CapacityModel& m = topology::nominal_model());

}  // namespace usbsat::analysis::model

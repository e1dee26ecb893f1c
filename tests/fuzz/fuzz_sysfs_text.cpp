// Fuzz target: every parser of one sysfs attribute's text (topology/sysfs_parse, mountinfo, speed, pcie_link,
// text). The first byte picks the parser, the rest is the attribute. Each parser must return a value or
// nullopt, never crash, and what it returns must be within the range its header promises.
#include <cmath>

#include "tests/fuzz/fuzz_common.hpp"
#include "topology/base/mountinfo.hpp"
#include "topology/base/text.hpp"
#include "topology/model/pcie_link.hpp"
#include "topology/model/speed.hpp"
#include "topology/model/sysfs_parse.hpp"

using namespace usbsat::topology;
using usbsat::fuzz::expect;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view s = usbsat::fuzz::as_text(data + 1, size - 1);
  switch (data[0] % 18) {
    case 0:
      (void)parse_hex16(s);
      break;
    case 1:
      (void)parse_hex32(s);
      break;
    case 2:
      (void)parse_hex8(s);
      break;
    case 3:
      (void)parse_uint(s);
      break;
    case 4:
      (void)parse_bcd_version(s);
      break;
    case 5:
      (void)parse_max_power(s);
      break;
    case 6:
      if (auto p = parse_port_name(s)) (void)port_name_for(p->hub, p->number);
      break;
    case 7:
      (void)parse_usb_name(s);
      break;
    case 8:
      (void)parse_yes_no(s);
      break;
    case 9:
      (void)parse_storage_quirks(s);
      break;
    case 10:
      (void)parse_triplet(s, 16);
      (void)parse_triplet(s, 10);
      break;
    case 11:
      (void)parse_devnum(s);
      break;
    case 12:
      (void)parse_pci_address(s);
      break;
    case 13:
      (void)hcd_kind_from_driver(s);
      (void)transport_from_syspath(s);
      break;
    case 14:
      (void)parse_speed(s);
      break;
    case 15:
      if (auto g = parse_pcie_speed(s))
        expect(std::isfinite(*g) && *g > 0, "parse_pcie_speed: finite, positive");
      (void)parse_pcie_width(s);
      break;
    case 16: {
      const auto t = trim(s);
      expect(t.size() <= s.size(), "trim: never longer");
      expect(strip_dev_prefix(s).size() <= s.size(), "strip_dev_prefix: never longer");
      (void)path_basename(s);
      (void)path_dirname(s);
      break;
    }
    default: {
      const auto nl = s.find('\n');
      (void)resolve_link(s.substr(0, nl), nl == std::string_view::npos ? "" : s.substr(nl + 1));
      (void)unescape_octal(s);
      break;
    }
  }
  return 0;
}

// Fuzz target: recordings (`--from FILE`), mutated the way a damaged or hostile file would be. The real
// sample recordings (topology/recording/samples, Linux) and the Windows fixtures (tests/fixtures/windows) are
// the skeletons; the input picks one and applies mutation records to its JSON tree, so that most cases stay a
// recording the reader accepts and the damage reaches the scan, the doctor and the renderers:
//   byte 0          which skeleton
//   then records    [op][index hi][index lo][value bytes ... up to 0xff]
//                   op % 8: 0 a string becomes the value's bytes (any bytes: invalid UTF-8, escapes, bidi)
//                           1 a value becomes a number parsed from the value (huge, negative, fractional)
//                           2 a value becomes null, 3 an empty array, 4 an empty object
//                           5 an object member is removed
//                           6 an object member is copied under a key made of the value (a second device)
//                           7 a string is cut to the value's length in bytes
//                   index: the (index % count)-th value of the tree, depth first
// Then recording → scan → doctor → topo/drives/ports/doctor renderers, text and JSON. A bad recording is a
// RecordingError (a sentence for the user); anything else thrown, a crash, a hang or a --json document that
// is not JSON is a finding.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_common.hpp"
#include "tests/fuzz/read_only_commands.hpp"
#include "topology/recording/recording.hpp"

using nlohmann::json;
using usbsat::fuzz::expect;
namespace rec = usbsat::topology::recording;

namespace {

std::vector<rec::Envelope> load_skeletons() {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {USBSAT_FUZZ_SAMPLES, USBSAT_FUZZ_WINDOWS})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());  // the input's byte 0 means the same skeleton on every machine
  std::vector<rec::Envelope> out;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    out.push_back(rec::parse_envelope(text.str()));
  }
  expect(!out.empty(), "skeleton recordings found");
  return out;
}

/// Every value of `j`, depth first (the root first).
void values(json& j, std::vector<json*>& out) {
  out.push_back(&j);
  if (j.is_structured())
    for (auto& v : j) values(v, out);
}

/// The objects of `j` that have at least one member, depth first.
void objects(json& j, std::vector<json*>& out) {
  if (j.is_object() && !j.empty()) out.push_back(&j);
  if (j.is_structured())
    for (auto& v : j) objects(v, out);
}

void mutate(json& data, unsigned op, unsigned index, const std::string& value) {
  if (op == 5 || op == 6) {
    std::vector<json*> objs;
    objects(data, objs);
    if (objs.empty()) return;
    json& o = *objs[index % objs.size()];
    auto it = std::next(o.begin(), static_cast<std::ptrdiff_t>((index / objs.size()) % o.size()));
    if (op == 5) {
      o.erase(it.key());
    } else {
      json copy = *it;
      o[value] = std::move(copy);
    }
    return;
  }
  std::vector<json*> all;
  values(data, all);
  json& v = *all[index % all.size()];
  switch (op) {
    case 0:
      v = value;
      break;
    case 1: {
      double d = 0;
      std::from_chars(value.data(), value.data() + value.size(), d);
      // An integer where it is one and fits (an even-length value asks for it), else the double as parsed.
      if (value.size() % 2 == 0 && std::abs(d) < 9.2e18 && d == std::trunc(d))
        v = static_cast<long long>(d);
      else
        v = d;
      break;
    }
    case 2:
      v = nullptr;
      break;
    case 3:
      v = json::array();
      break;
    case 4:
      v = json::object();
      break;
    case 7:
      if (v.is_string()) v = v.get<std::string>().substr(0, value.size());
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<rec::Envelope> skeletons = load_skeletons();
  if (size == 0) return 0;
  rec::Envelope e = skeletons[data[0] % skeletons.size()];
  for (std::size_t i = 1; i + 3 <= size;) {
    const unsigned op = data[i] % 8, index = (data[i + 1] << 8) | data[i + 2];
    std::size_t end = i + 3;
    while (end < size && data[end] != 0xff) ++end;
    mutate(e.data, op, index, std::string(reinterpret_cast<const char*>(data) + i + 3, end - i - 3));
    i = end + 1;
  }

  usbsat::topology::ScanResult scan;
  try {
    scan = rec::scan_recording(e);
  } catch (const rec::RecordingError& err) {
    expect(*err.what() != '\0', "a refused recording says why");
    return 0;
  }
  usbsat::fuzz::run_read_only_commands(scan);
  return 0;
}

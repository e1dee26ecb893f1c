#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include "report/drives_view.hpp"
#include "report/tree.hpp"
#include "src/cli/diagnostics_printer.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/samples.hpp"
#include "src/cli/views.hpp"
#include "tests/support/machines.hpp"

using namespace usbsat;
namespace tp = usbsat::topology;

namespace {
/// Captures what show_view() writes to a FILE*.
struct Capture {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  std::string text() {
    std::fflush(f);
    return std::string(buf, size);
  }
  ~Capture() {
    std::fclose(f);
    std::free(buf);
  }
};

const std::vector<tp::Diagnostic> kDiags{{tp::Severity::Info, "usb1", "hwdb has no name"},
                                         {tp::Severity::Warning, "/sys/x", "port has no peer"},
                                         {tp::Severity::Error, "2-1.1", "descriptors\nunreadable"}};
}  // namespace

TEST_CASE("format_diagnostics honours verbosity and escapes") {
  cli::GlobalOptions normal, verbose, quiet;
  verbose.verbose = true;
  quiet.quiet = true;
  CHECK(cli::format_diagnostics(kDiags, normal) ==
        "usbsat: warning: /sys/x: port has no peer\nusbsat: error: 2-1.1: descriptors\\x0aunreadable\n");
  CHECK(cli::format_diagnostics(kDiags, verbose).find("usbsat: info: usb1: hwdb has no name\n") == 0);
  CHECK(cli::format_diagnostics(kDiags, quiet) == "usbsat: error: 2-1.1: descriptors\\x0aunreadable\n");
  CHECK(cli::format_diagnostics({}, verbose).empty());
}

TEST_CASE("exit_code_for: errors mean partial results") {
  CHECK(cli::exit_code_for(kDiags) == kExitPartial);
  CHECK(cli::exit_code_for(std::span(kDiags).first(2)) == kExitOk);
  CHECK(cli::exit_code_for({}) == kExitOk);
}

TEST_CASE("no_usb_notice: only when there is no controller, and it points at the sample recording found") {
  const std::filesystem::path sample = "/opt/x/share/usbsat/recordings/workstation.json";
  CHECK_FALSE(cli::no_usb_notice(testing::workstation(), "topo", sample));
  tp::TopologyBuilder b;
  std::vector<tp::Diagnostic> d;
  const auto empty = std::move(b).finish(d);
  const auto n = cli::no_usb_notice(empty, "drives", sample);
  REQUIRE(n);
  CHECK(n->find("no USB host controller found under /sys") != std::string::npos);
  // A command that works at once, without umockdev: the sample recording that was found.
  CHECK(n->find("usbsat --from /opt/x/share/usbsat/recordings/workstation.json drives") != std::string::npos);
  CHECK(n->find("with-fixture.sh") == std::string::npos);
  // None found: no path that does not exist, but where the samples live.
  const auto none = cli::no_usb_notice(empty, "drives", std::nullopt);
  REQUIRE(none);
  CHECK(none->find("--from") == std::string::npos);
  CHECK(none->find("topology/recording/samples") != std::string::npos);
}

TEST_CASE("sample recordings: beside the program first, then the configured folders, the first that has it") {
  namespace fs = std::filesystem;
  const std::vector<fs::path> configured{"/usr/local/share/usbsat/recordings",
                                         "/src/usbsat/topology/recording/samples"};
  // Installed anywhere (a prefix, a DESTDIR): <prefix>/bin/usbsat -> <prefix>/share/usbsat/recordings.
  CHECK(cli::sample_dir_candidates(fs::path("/tmp/inst/usr/bin/usbsat"), configured) ==
        std::vector<fs::path>{"/tmp/inst/usr/share/usbsat/recordings", configured[0], configured[1]});
  CHECK(cli::sample_dir_candidates(std::nullopt, configured) == configured);
  CHECK(cli::sample_dir_candidates(std::nullopt, {"", "/a"}) == std::vector<fs::path>{"/a"});
  struct Row {
    std::set<fs::path> present;
    std::optional<fs::path> want;
  };
  const fs::path exe = "/home/u/usbsat/build/src/usbsat";
  const Row rows[] = {
      // A build tree: nothing beside the program, nothing installed: the source tree's samples.
      {{"/src/usbsat/topology/recording/samples/workstation.json"},
       fs::path("/src/usbsat/topology/recording/samples/workstation.json")},
      // Installed as configured and in the source tree: the installed one.
      {{"/usr/local/share/usbsat/recordings/workstation.json",
        "/src/usbsat/topology/recording/samples/workstation.json"},
       fs::path("/usr/local/share/usbsat/recordings/workstation.json")},
      // Beside the program wins.
      {{"/home/u/usbsat/build/share/usbsat/recordings/workstation.json",
        "/usr/local/share/usbsat/recordings/workstation.json"},
       fs::path("/home/u/usbsat/build/share/usbsat/recordings/workstation.json")},
      // Nowhere: nullopt, never a path that does not exist.
      {{"/usr/local/share/usbsat/recordings/other.json"}, std::nullopt},
  };
  for (const auto& r : rows) {
    const auto got = cli::first_holding(cli::sample_dir_candidates(exe, configured), "workstation.json",
                                        [&](const fs::path& p) { return r.present.count(p) > 0; });
    CHECK(got == r.want);
  }
}

TEST_CASE("show_view: view on out, notice and diagnostics on err, exit code from severities") {
  const cli::ViewRenderers drives{&report::render_drives_text, &report::render_drives_json};
  cli::ViewOptions opts;
  cli::GlobalOptions global;

  SUBCASE("a machine with USB and an error diagnostic: exit 4, no notice") {
    tp::ScanResult scan{testing::workstation(), kDiags};
    Capture out, err;
    CHECK(cli::show_view(scan, "drives", opts, global, drives, out.f, err.f) == kExitPartial);
    CHECK(out.text() == report::render_drives_text({scan.topology, scan.diagnostics}));
    const auto e = err.text();
    CHECK(e.find("no USB host controller") == std::string::npos);
    CHECK(e.find("usbsat: error: 2-1.1") != std::string::npos);
  }
  SUBCASE("JSON carries the diagnostics too") {
    global.json = true;
    tp::ScanResult scan{testing::workstation(), kDiags};
    Capture out, err;
    cli::show_view(scan, "drives", opts, global, drives, out.f, err.f);
    CHECK(out.text().find("\"severity\": \"error\"") != std::string::npos);
    CHECK(err.text().find("usbsat: error:") != std::string::npos);
  }
  SUBCASE("no USB: the notice on stderr, non-USB disks still listed") {
    testing::Machine m;
    m.system_disk({.name = "vda", .size_bytes = 1000000000}, "virtio");
    tp::ScanResult scan{m.finish(), {}};
    Capture out, err;
    CHECK(cli::show_view(scan, "drives", opts, global, drives, out.f, err.f) == kExitOk);
    CHECK(out.text().find("vda") != std::string::npos);
    CHECK(err.text().find("no USB host controller found under /sys") != std::string::npos);
  }
}

// usbsat: parse, dispatch, map the one environment-level exception of each module to an exit code, and check
// once, for every command, that the output really reached stdout.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "load/errors.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/output_file.hpp"
#include "src/cli/parse.hpp"
#include "src/cli/terminal.hpp"
#include "topology/model/errors.hpp"
#include "topology/recording/recording_error.hpp"

namespace {

int run(const usbsat::cli::Invocation& inv) {
  using namespace usbsat;
  try {
    return inv.run();
  } catch (const topology::recording::RecordingError& e) {
    return cli::fail(inv.global, kExitEnvironment, "", std::string("cannot read the recording ") + e.what());
  } catch (const topology::ScanError& e) {
    return cli::fail(inv.global, kExitEnvironment, "", std::string("cannot scan this system: ") + e.what());
  } catch (const cli::OutputError& e) {
    return cli::fail(inv.global, e.code(), "", e.what());
  } catch (const load::LoadError& e) {
    return cli::fail(inv.global, kExitEnvironment, "", std::string("cannot run the load: ") + e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "usbsat: internal error: {}\n", e.what());
    return kExitFailure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace usbsat;
  cli::setup_standard_streams();
  std::vector<std::string> args(argv, argv + argc);
  auto parsed = cli::parse_args(args);
  int rc = 0;
  if (!parsed.invocation) {
    std::fputs(parsed.output.c_str(), parsed.exit_code == kExitOk ? stdout : stderr);
    rc = parsed.exit_code;
    if (rc == kExitUsage && parsed.json) cli::print_error_json(rc, parsed.message);
  } else {
    rc = run(*parsed.invocation);
  }
  return cli::check_output(stdout, stderr, rc);
}

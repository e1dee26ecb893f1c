// usbsat: parse, dispatch, and map the one environment-level exception of each module to an exit code.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "load/errors.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/parse.hpp"
#include "topology/errors.hpp"

int main(int argc, char** argv) {
  using namespace usbsat;
  std::vector<std::string> args(argv, argv + argc);
  auto parsed = cli::parse_args(args);
  if (!parsed.invocation) {
    std::fputs(parsed.output.c_str(), parsed.exit_code == kExitOk ? stdout : stderr);
    return parsed.exit_code;
  }
  try {
    return parsed.invocation->run();
  } catch (const topology::ScanError& e) {
    fmt::print(stderr, "usbsat: cannot scan this system: {}\n", e.what());
    return kExitEnvironment;
  } catch (const load::LoadError& e) {
    fmt::print(stderr, "usbsat: cannot run the load: {}\n", e.what());
    return kExitEnvironment;
  } catch (const std::exception& e) {
    fmt::print(stderr, "usbsat: internal error: {}\n", e.what());
    return kExitFailure;
  }
}

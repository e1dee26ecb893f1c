#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/cli.hpp"
#include "src/exit_codes.hpp"

using namespace usbsat;

namespace {
cli::ParseResult parse(std::vector<std::string> args) {
  args.insert(args.begin(), "usbsat");
  return cli::parse_args(args);
}
}  // namespace

TEST_CASE("topo, drives and ports are in the command table") {
  std::vector<std::string_view> names;
  for (const auto& c : cli::commands()) names.push_back(c.name);
  for (const auto* n : {"topo", "drives", "ports"})
    CHECK(std::find(names.begin(), names.end(), std::string_view(n)) != names.end());
}

TEST_CASE("parse: the view commands and their flags") {
  struct Row {
    std::vector<std::string> args;
    std::string command;
    bool json, verbose, quiet, all;
  };
  const Row rows[] = {
      {{"drives"}, "drives", false, false, false, false},
      {{"drives", "--json"}, "drives", true, false, false, false},
      {{"--json", "ports"}, "ports", true, false, false, false},
      {{"ports", "-v"}, "ports", false, true, false, false},
      {{"topo", "--all"}, "topo", false, false, false, true},
      {{"topo", "-a", "--json", "-q"}, "topo", true, false, true, true},
  };
  for (const auto& r : rows) {
    CAPTURE(r.args.size());
    CAPTURE(r.command);
    const auto p = parse(r.args);
    REQUIRE(p.invocation);
    CHECK(p.exit_code == kExitOk);
    CHECK(p.invocation->command == r.command);
    CHECK(p.invocation->global.json == r.json);
    CHECK(p.invocation->global.verbose == r.verbose);
    CHECK(p.invocation->global.quiet == r.quiet);
    CHECK(p.invocation->scan.all_devices == r.all);
  }
}

TEST_CASE("parse: usage errors and help") {
  auto bad = parse({"drives", "--all"});  // --all belongs to topo only
  CHECK_FALSE(bad.invocation);
  CHECK(bad.exit_code == kExitUsage);
  CHECK(bad.output.find("usbsat:") == 0);

  auto unknown = parse({"topology"});
  CHECK_FALSE(unknown.invocation);
  CHECK(unknown.exit_code == kExitUsage);

  auto help = parse({"--help"});
  CHECK_FALSE(help.invocation);
  CHECK(help.exit_code == kExitOk);
  for (const auto* n : {"topo", "drives", "ports"}) CHECK(help.output.find(n) != std::string::npos);
}

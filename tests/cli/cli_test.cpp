#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "src/cli/cmd_completion.hpp"
#include "src/cli/cmd_doctor.hpp"
#include "src/cli/exit_codes.hpp"
#include "src/cli/failure.hpp"
#include "src/cli/parse.hpp"
#include "src/cli/views.hpp"

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
    bool json, verbose, quiet;
  };
  const Row rows[] = {
      {{"drives"}, "drives", false, false, false},
      {{"drives", "--json"}, "drives", true, false, false},
      {{"--json", "ports"}, "ports", true, false, false},
      {{"ports", "-v"}, "ports", false, true, false},
      {{"topo", "--all"}, "topo", false, false, false},
      {{"topo", "-a", "--json", "-q"}, "topo", true, false, true},
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
  }
}

namespace {
/// Bind a command's options to a bare CLI11 app and parse `args` (no program name).
template <class Options>
Options bound(void (*bind)(CLI::App&, Options&), std::vector<std::string> args) {
  CLI::App app;
  Options o;
  bind(app, o);
  std::reverse(args.begin(), args.end());
  app.parse(args);
  return o;
}
void bind_topo_like(CLI::App& app, cli::ViewOptions& o) {
  app.add_flag("-a,--all", o.all_devices);
  cli::bind_scan_options(app, o.scan);
}
}  // namespace

TEST_CASE("parse: --mountinfo for the scanning commands") {
  CHECK(bound(&bind_topo_like, {"--mountinfo", ""}).scan.mountinfo == std::string());
  CHECK(bound(&bind_topo_like, {"--mountinfo", "/tmp/mi"}).scan.mountinfo == "/tmp/mi");
  CHECK_FALSE(bound(&bind_topo_like, {}).scan.mountinfo);
  for (const auto* c : {"topo", "drives", "ports"}) CHECK(parse({c, "--mountinfo", "/tmp/mi"}).invocation);
  CHECK_FALSE(parse({"version", "--mountinfo", "x"}).invocation);
}

TEST_CASE("parse: usbsat doctor with --json and --max-sectors-target N") {
  CHECK(bound(&cli::bind_doctor_options, {}).max_sectors_target_kb == 1024);
  CHECK(bound(&cli::bind_doctor_options, {"--max-sectors-target", "2048"}).max_sectors_target_kb == 2048);
  auto r = parse({"doctor", "--json", "--max-sectors-target", "2048"});
  REQUIRE(r.invocation);
  CHECK(r.invocation->command == "doctor");
  CHECK(r.invocation->global.json);
  r = parse({"doctor", "--max-sectors-target", "0"});
  CHECK_FALSE(r.invocation);
  CHECK(r.exit_code == kExitUsage);
}

TEST_CASE("doctor's exit code is its worst finding") {
  CHECK(doctor_exit_code(std::nullopt) == kExitOk);
  CHECK(doctor_exit_code(report::FindingSeverity::Info) == kExitOk);
  CHECK(doctor_exit_code(report::FindingSeverity::Warning) == kExitWarnings);
  CHECK(doctor_exit_code(report::FindingSeverity::Problem) == kExitProblems);
}

TEST_CASE("parse: usage errors and help") {
  auto bad = parse({"drives", "--all"});  // --all belongs to topo only
  CHECK_FALSE(bad.invocation);
  CHECK(bad.exit_code == kExitUsage);
  CHECK(bad.output.find("usbsat:") == 0);

  auto unknown = parse({"topology"});
  CHECK_FALSE(unknown.invocation);
  CHECK(unknown.exit_code == kExitUsage);

  // Not a command: say so and list the commands, instead of CLI11's "A subcommand is required".
  CHECK(unknown.message.find("unknown command 'topology'; the commands are: topo, drives, ports") == 0);
  CHECK(parse({"-v", "bogus", "x"}).message.find("unknown command 'bogus'") == 0);
  CHECK(parse({}).message.find("a command is required: topo, drives") == 0);
  CHECK(parse({"--bogus"}).message.find("--bogus") != std::string::npos);

  auto help = parse({"--help"});
  CHECK_FALSE(help.invocation);
  CHECK(help.exit_code == kExitOk);
  for (const auto* n : {"topo", "drives", "ports"}) CHECK(help.output.find(n) != std::string::npos);
}

TEST_CASE("parse: --json on the command line marks usage errors for a JSON error document") {
  CHECK(parse({"--json", "bogus"}).json);
  CHECK(parse({"load", "--json", "--qd", "0", "f"}).json);
  CHECK(parse({"load", "--json", "--qd", "0", "f"}).exit_code == kExitUsage);
  CHECK_FALSE(parse({"load", "--qd", "0", "f"}).json);
  CHECK_FALSE(parse({"load", "--qd", "0", "--", "--json"}).json);  // after "--" it is a target name
  CHECK(parse({"--json", "version"}).json);
}

TEST_CASE("exit_kind names the kinds of the JSON error document") {
  CHECK(exit_kind(kExitUsage) == "usage");
  CHECK(exit_kind(kExitEnvironment) == "environment");
  CHECK(exit_kind(kExitRefused) == "refused");
  CHECK(exit_kind(kExitFailure) == "error");
}

TEST_CASE("check_output: a lost write of the output is exit 3 with a message") {
  std::FILE* full = std::fopen("/dev/full", "w");
  if (!full) return;  // no /dev/full here
  std::FILE* err = std::tmpfile();
  REQUIRE(err);
  std::fputs("some output\n", full);
  CHECK(cli::check_output(full, err, kExitOk) == kExitEnvironment);
  std::rewind(err);
  char line[256] = {};
  REQUIRE(std::fgets(line, sizeof line, err));
  CHECK(std::string(line) == "usbsat: cannot write the output: No space left on device\n");
  std::fclose(full);
  std::fclose(err);

  std::FILE* ok = std::tmpfile();
  REQUIRE(ok);
  std::fputs("fine\n", ok);
  CHECK(cli::check_output(ok, stderr, kExitPartial) == kExitPartial);  // nothing lost: the command's code
  std::fclose(ok);
}

TEST_CASE("completion: generated from the registry, and bash completes with it") {
  const std::string script = cli::bash_completion();
  CHECK(script.find("    doctor) opts=\"--max-sectors-target\" ;;") != std::string::npos);
  CHECK(script.find("    topo) opts=\"--all -a --dot --mountinfo\" ;;") != std::string::npos);
  CHECK(script.find("--allow-write") != std::string::npos);
  // Real bash: complete "usbsat sat" and "usbsat doctor --max".
  const std::string path = "/tmp/usbsat-completion-test.bash";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    std::fputs(script.c_str(), f);
    std::fclose(f);
  }
  auto complete = [&](const std::string& words, int cword) {
    const std::string cmd = "bash -c 'source " + path + "; COMP_WORDS=(" + words +
                            "); COMP_CWORD=" + std::to_string(cword) + "; _usbsat; echo \"${COMPREPLY[*]}\"'";
    std::FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    char buf[4096] = {};
    std::string out;
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    return out;
  };
  CHECK(complete("usbsat sat", 1) == "saturate\n");
  CHECK(complete("usbsat doctor --max", 2) == "--max-sectors-target\n");
  CHECK(complete("usbsat --json plan --pre", 3) == "--predict --prefer\n");
  // --from's value is not the command: the command after it is completed, and --from itself is offered.
  CHECK(complete("usbsat --from rec.json plan --pre", 4) == "--predict --prefer\n");
  CHECK(complete("usbsat --fr", 1) == "--from\n");
  std::remove(path.c_str());
}

TEST_CASE("completion: zsh generated from the registry, and zsh offers its words") {
  const std::string script = cli::zsh_completion();
  CHECK(script.rfind("#compdef usbsat\n", 0) == 0);
  CHECK(script.find("    doctor) opts=(--max-sectors-target) ;;") != std::string::npos);
  CHECK(script.find("    export) opts=(--prometheus --output -o) ;;") != std::string::npos);
  CHECK(script.find("    'saturate:Find shared-bandwidth bottlenecks") != std::string::npos);
  // Real zsh with the completion system's builtins stubbed to print what they would offer (zsh itself then
  // filters by the prefix): "usbsat <TAB>", "usbsat --json doctor --m<TAB>", "usbsat plan <TAB>".
  if (std::system("command -v zsh >/dev/null 2>&1") != 0) {
    MESSAGE("zsh not installed (bootstrap.sh TEST_DEPS has it): only the script's text was checked");
    return;
  }
  const std::string path = "/tmp/usbsat-completion-test.zsh";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    std::fputs(script.c_str(), f);
    std::fclose(f);
  }
  auto complete = [&](const std::string& words, int current, const std::string& prefix) {
    const std::string cmd =
        "zsh -f -c 'compadd() { shift; print -r -- \"compadd $*\"; }; "
        "_describe() { local -a a; a=(\"${(@P)4}\"); a=(\"${(@)a%%:*}\"); print -r -- \"describe $a\"; }; "
        "_files() { print files; }; "
        "words=(" +
        words + "); CURRENT=" + std::to_string(current) + "; PREFIX=" + prefix + "; source " + path + "'";
    std::FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    char buf[4096] = {};
    std::string out;
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    CHECK(pclose(p) == 0);
    return out;
  };
  CHECK(complete("usbsat \"\"", 2, "\"\"") ==
        "describe topo drives ports doctor plan load saturate history export report record watch top "
        "completion version\n");
  CHECK(
      complete("usbsat --json doctor --m", 4, "--m") ==
      "compadd --max-sectors-target --version -V --json --verbose -v --quiet -q --no-color --from --history "
      "-h --help\n");
  CHECK(complete("usbsat plan \"\"", 3, "\"\"") == "files\n");
  CHECK(complete("usbsat -", 2, "-") ==
        "compadd --version -V --json --verbose -v --quiet -q --no-color --from --history -h --help\n");
  // The global options come from the parser's own list: --from is offered, its value is a file, and the
  // command after it is still found.
  CHECK(complete("usbsat --from \"\"", 3, "\"\"") == "files\n");
  CHECK(complete("usbsat --from rec.json doctor --m", 5, "--m").starts_with("compadd --max-sectors-target "));
  std::remove(path.c_str());
}

TEST_CASE("parse: the global --from FILE, before the command, for every command") {
  auto p = parse({"--from", "rec.json", "drives", "--json"});
  REQUIRE(p.invocation);
  CHECK(p.invocation->global.from == "rec.json");
  CHECK(p.invocation->command == "drives");
  CHECK(parse({"--from=rec.json", "doctor"}).invocation->global.from == "rec.json");
  CHECK_FALSE(parse({"topo"}).invocation->global.from);
  CHECK(parse({"record", "-o", "x.json", "--keep-serials"}).invocation);
  // The value of --from is not the command: a wrong word after it is still named.
  CHECK(parse({"--from", "rec.json", "bogus"}).message.find("unknown command 'bogus'") == 0);
  CHECK(parse({"--from=rec.json", "bogus"}).message.find("unknown command 'bogus'") == 0);
  CHECK(parse({"--from"}).exit_code == kExitUsage);
}

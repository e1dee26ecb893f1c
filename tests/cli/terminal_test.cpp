// src/cli/terminal: the colour / smart-terminal / width decision as a table over
// --no-color × NO_COLOR × TTY × TERM (× winsize × COLUMNS).
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "src/cli/terminal.hpp"

using usbsat::cli::decide_terminal;
using usbsat::cli::TerminalFacts;

namespace {
const std::optional<std::string> unset;
}

TEST_CASE("colour and smart terminal: --no-color x NO_COLOR x TTY x TERM") {
  struct Case {
    bool flag;
    std::optional<std::string> no_color;
    bool tty;
    std::optional<std::string> term;
    bool smart, color;
  };
  const Case cases[] = {
      // flag   NO_COLOR      tty    TERM                smart  color
      {false, unset, true, "xterm-256color", true, true},     // the usual terminal: colour
      {true, unset, true, "xterm-256color", true, false},     // --no-color
      {false, "1", true, "xterm-256color", true, false},      // NO_COLOR=1
      {false, "0", true, "xterm-256color", true, false},      // any non-empty value counts, even "0"
      {false, "", true, "xterm-256color", true, true},        // NO_COLOR= (empty) is unset (no-color.org)
      {true, "1", true, "xterm-256color", true, false},       // both
      {false, unset, true, "dumb", false, false},             // TERM=dumb: neither smart nor colour
      {false, unset, true, unset, false, false},              // no TERM
      {false, unset, true, "", false, false},                 // empty TERM
      {false, unset, false, "xterm-256color", false, false},  // a pipe or a file
      {true, unset, false, "xterm-256color", false, false},
      {false, "1", false, "dumb", false, false},
      {false, unset, true, "screen", true, true},
      {false, unset, true, "linux", true, true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.flag);
    CAPTURE(c.no_color.value_or("<unset>"));
    CAPTURE(c.tty);
    CAPTURE(c.term.value_or("<unset>"));
    TerminalFacts f;
    f.is_tty = c.tty;
    f.term = c.term;
    f.no_color = c.no_color;
    const auto t = decide_terminal(f, c.flag);
    CHECK(t.smart == c.smart);
    CHECK(t.color == c.color);
    CHECK(t.style().color == c.color);
  }
}

TEST_CASE("a Windows console with virtual-terminal processing is smart without a TERM") {
  struct Case {
    bool vt;
    std::optional<std::string> term;
    std::optional<std::string> no_color;
    bool tty, smart, color;
  };
  const Case cases[] = {
      {true, unset, unset, true, true, true},             // Windows Terminal, conhost on Windows 10+
      {true, unset, "1", true, true, false},              // NO_COLOR still holds
      {true, "dumb", unset, true, false, false},          // an explicit TERM=dumb still holds
      {true, "", unset, true, false, false},              // so does an empty TERM someone set
      {true, "xterm-256color", unset, true, true, true},  // mintty, MSYS
      {false, unset, unset, true, false, false},          // an old console without VT: plain
      {true, unset, unset, false, false, false},          // never for a pipe
  };
  for (const auto& c : cases) {
    CAPTURE(c.vt);
    CAPTURE(c.term.value_or("<unset>"));
    CAPTURE(c.no_color.value_or("<unset>"));
    CAPTURE(c.tty);
    TerminalFacts f;
    f.is_tty = c.tty;
    f.vt_console = c.vt;
    f.term = c.term;
    f.no_color = c.no_color;
    const auto t = decide_terminal(f, false);
    CHECK(t.smart == c.smart);
    CHECK(t.color == c.color);
  }
}

TEST_CASE("width: the window size, else a positive COLUMNS, and never for a pipe") {
  struct Case {
    bool tty;
    std::size_t winsize;
    std::optional<std::string> columns;
    std::size_t width;
  };
  const Case cases[] = {
      {true, 120, unset, 120},                       // TIOCGWINSZ
      {true, 120, "80", 120},                        // the window size wins over COLUMNS
      {true, 0, "80", 80},                           // ioctl unavailable: COLUMNS
      {true, 0, unset, 0},                           // unknown: no limit
      {true, 0, "", 0},        {true, 0, "abc", 0},  // not a number
      {true, 0, "80x", 0},     {true, 0, "-5", 0},
      {true, 0, "0", 0},       {false, 120, "80", 0},  // a pipe is never fitted, whatever COLUMNS says
      {false, 0, "80", 0},
  };
  for (const auto& c : cases) {
    CAPTURE(c.tty);
    CAPTURE(c.winsize);
    CAPTURE(c.columns.value_or("<unset>"));
    TerminalFacts f;
    f.is_tty = c.tty;
    f.term = "xterm";
    f.winsize_columns = c.winsize;
    f.columns_env = c.columns;
    CHECK(decide_terminal(f, false).width == c.width);
    CHECK(decide_terminal(f, true).width == c.width);  // --no-color takes colour away, not the width
    CHECK(decide_terminal(f, false).style().width == c.width);
  }
  // TERM=dumb on a TTY: no colour, but the table still fits the window.
  TerminalFacts dumb;
  dumb.is_tty = true;
  dumb.term = "dumb";
  dumb.winsize_columns = 70;
  CHECK(decide_terminal(dumb, false).width == 70);
}

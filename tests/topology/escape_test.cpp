#include <doctest/doctest.h>

#include "topology/words/escape.hpp"

using namespace usbsat::topology;

TEST_CASE("escape_unprintable escapes control characters and invalid UTF-8, keeps valid UTF-8") {
  CHECK(escape_unprintable("SanDisk") == "SanDisk");
  CHECK(escape_unprintable("a\nb") == "a\\x0ab");
  CHECK(escape_unprintable("\x1b[31m") == "\\x1b[31m");
  CHECK(escape_unprintable("Gr\xc3\xbc\xc3\x9f") == "Gr\xc3\xbc\xc3\x9f");  // "Grüß"
  CHECK(escape_unprintable("bad\xff") == "bad\\xff");
  CHECK(escape_unprintable("\xc0\xaf") == "\\xc0\\xaf");           // overlong '/'
  CHECK(escape_unprintable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // surrogate
  CHECK(escape_unprintable("trunc\xe2\x82") == "trunc\\xe2\\x82");
}

TEST_CASE("display_string trims and collapses blanks of firmware strings") {
  CHECK(display_string("VIA Labs, Inc.         ") == "VIA Labs, Inc.");
  CHECK(display_string(" SanDisk") == "SanDisk");
  CHECK(display_string("USB  SanDisk 3.2Gen1") == "USB SanDisk 3.2Gen1");
  CHECK(display_string("   ") == "");
  CHECK(display_string("a\tb") == "a\\x09b");
}

TEST_CASE("terminal_safe: escape_unprintable's rule for whole blocks, newlines and tabs kept") {
  CHECK(terminal_safe("a\tb\nc") == "a\tb\nc");
  CHECK(escape_unprintable("a\tb\nc") == "a\\x09b\\x0ac");
  CHECK(terminal_safe("\x1b[31mred\a") == "\\x1b[31mred\\x07");
  CHECK(terminal_safe("\xff ok \xc3\xbc") == "\\xff ok \xc3\xbc");
  // C1 controls (U+009B is CSI on some terminals) are escaped too, byte by byte.
  CHECK(escape_unprintable("x\xc2\x9b"
                           "31m") == "x\\xc2\\x9b31m");
  CHECK(escape_unprintable("\xc2\xa0") == "\xc2\xa0");  // U+00A0 is not a control
}

TEST_CASE("escape_unprintable escapes bidirectional formatting characters as u-escapes") {
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      {"gpj\xe2\x80\xae.exe", "gpj\\u202e.exe"},         // U+202E right-to-left override
      {"\xe2\x80\xaa", "\\u202a"},                       // U+202A left-to-right embedding
      {"\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069"},  // isolates
      {"\xe2\x80\x8e\xe2\x80\x8f", "\\u200e\\u200f"},    // LRM, RLM
      {"\xd8\x9c", "\\u061c"},                           // Arabic letter mark
      {"\xe2\x80\xa9", "\xe2\x80\xa9"},                  // U+2029 paragraph separator: not bidi formatting
      {"\xe2\x81\xaa", "\xe2\x81\xaa"},                  // U+206A: outside the isolates
  };
  for (const auto& r : rows) {
    CAPTURE(r.in);
    CHECK(escape_unprintable(r.in) == r.out);
    CHECK(terminal_safe(r.in) == r.out);
  }
}

TEST_CASE("trim_and_escape trims surrounding whitespace before escaping") {
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      {" SanDisk 3.2Gen1", "SanDisk 3.2Gen1"},  // USB string descriptors lose surrounding whitespace
      {"ASMT    ", "ASMT"},
      {"\tModel\r\n", "Model"},    // escaping first would keep "\x09" and "\x0d\x0a"
      {"a\tb", "a\\x09b"},         // inner controls are escaped, not trimmed
      {" \x1b[2J ", "\\x1b[2J"},   // ESC is not whitespace
      {"\xff\xfe", "\\xff\\xfe"},  // invalid UTF-8
      {"\xc2\x9b"
       "31m",
       "\\xc2\\x9b31m"},  // C1 CSI
      {"\x7f", "\\x7f"},
      {"", ""},
  };
  for (const auto& r : rows) {
    CAPTURE(r.in);
    CHECK(trim_and_escape(r.in) == r.out);
    CHECK(trim_and_escape_move(std::string(r.in)) ==
          r.out);  // the copy-free form for strings the caller gives up
  }
  CHECK(trim_and_escape_move("plain ASCII") == "plain ASCII");
}

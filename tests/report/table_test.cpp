// report/table: display width, elide_middle (ninja's ElideMiddle, UTF-8 aware) and tables fitted to a width.
#include <doctest/doctest.h>

#include <string>

#include "report/style.hpp"
#include "report/table.hpp"

using namespace usbsat::report;

TEST_CASE("elide_middle: a table of widths, ASCII") {
  struct Case {
    std::string_view in;
    std::size_t width;
    std::string_view out;
  };
  const Case cases[] = {
      {"", 0, ""},
      {"abc", 7, "abc"},              // fits: unchanged
      {"abcdefg", 7, "abcdefg"},      // exactly fits
      {"abcdefghij", 7, "ab...ij"},   // keep 4: 2 left, 2 right
      {"abcdefghij", 8, "abc...ij"},  // keep 5: the left part gets the odd column
      {"abcdefghij", 4, "a..."},      // keep 1: left only
      {"abcdefghij", 3, "..."},
      {"abcdefghij", 2, ".."},
      {"abcdefghij", 0, ""},
      {"Intel Corporation USB 3.0 xHCI Controller", 24, "Intel Corpo...Controller"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in);
    CAPTURE(c.width);
    CHECK(elide_middle(c.in, c.width) == c.out);
  }
}

TEST_CASE("elide_middle counts code points and never cuts a multi-byte sequence") {
  // "Grüße aus Köln" is 14 code points, 17 bytes.
  const std::string s =
      "Gr\xc3\xbc\xc3\x9f"
      "e aus K\xc3\xb6ln";
  CHECK(display_width(s) == 14);
  CHECK(elide_middle(s, 14) == s);                         // fits by columns although it has more bytes
  CHECK(elide_middle(s, 9) == "Gr\xc3\xbc...\xc3\xb6ln");  // ü and ö kept whole
  CHECK(elide_middle(s, 8) == "Gr\xc3\xbc...ln");
  CHECK(elide_middle(s, 6) == "Gr...n");
  // A three-byte sequence (€) at the cut on either side.
  std::string euro;
  for (int i = 0; i < 6; ++i) euro += "\xe2\x82\xac";  // 6 × €, 18 bytes
  CHECK(elide_middle(euro, 6) == euro);
  CHECK(elide_middle(euro, 4) == "\xe2\x82\xac...");
  CHECK(elide_middle(euro, 5) == "\xe2\x82\xac...\xe2\x82\xac");
  for (std::size_t w = 0; w <= 16; ++w) {
    const std::string e = elide_middle(s, w);
    CAPTURE(w);
    CHECK(display_width(e) == std::min<std::size_t>(w, 14));
    for (std::size_t i = 0; i + 1 < e.size(); ++i)  // every lead byte is followed by its continuation bytes
      if ((static_cast<unsigned char>(e[i]) & 0xe0) == 0xc0)
        CHECK((static_cast<unsigned char>(e[i + 1]) & 0xc0) == 0x80);
  }
}

TEST_CASE("display_width skips the colour sequences of paint()") {
  const TextStyle colour{true, 0};
  CHECK(display_width(paint("UAS", Color::Good, colour)) == 3);
  CHECK(paint("UAS", Color::Good, colour) != "UAS");
  CHECK(paint("UAS", Color::Good, TextStyle{}) == "UAS");
  // A coloured cell still aligns.
  CHECK(render_table({"P", "X"}, {{paint("BOT", Color::Warning, colour), "1"}, {"UAS", "2"}}) ==
        "P    X\n\x1b[33mBOT\x1b[0m  1\nUAS  2\n");
}

TEST_CASE("render_table fits a width by eliding the widest elidable column") {
  const std::vector<std::string> header{"DEV", "CONTROLLER", "MODEL"};
  const std::vector<std::vector<std::string>> rows{
      {"sda", "0000:00:14.0 Intel Corporation 100 Series USB 3.0 xHCI Controller", "WD My Passport"},
      {"sdb", "0000:03:00.0 ASM1042", "Samsung Portable SSD T5"}};
  const std::string natural = render_table(header, rows);
  CHECK(render_table(header, rows, {0, {1}}) == natural);    // no width: unchanged
  CHECK(render_table(header, rows, {200, {1}}) == natural);  // wide enough: unchanged

  // 96 columns wide; at 60 the CONTROLLER column gives up 36 and its long cell keeps both ends.
  const std::string fitted = render_table(header, rows, {60, {1}});
  CHECK(fitted ==
        "DEV  CONTROLLER                      MODEL\n"
        "sda  0000:00:14.0 I...CI Controller  WD My Passport\n"
        "sdb  0000:03:00.0 ASM1042            Samsung Portable SSD T5\n");
  std::size_t start = 0;
  for (auto nl = fitted.find('\n'); nl != std::string::npos; start = nl + 1, nl = fitted.find('\n', start))
    CHECK(display_width(std::string_view(fitted).substr(start, nl - start)) <= 60);

  // Two elidable columns: the wider gives way first, down to the other's width, then they take turns.
  const std::string both = render_table(header, rows, {50, {1, 2}});
  CHECK(both ==
        "DEV  CONTROLLER             MODEL\n"
        "sda  0000:00:1...ontroller  WD My Passport\n"
        "sdb  0000:03:00.0 ASM1042   Samsung Po...le SSD T5\n");
}

TEST_CASE("render_table never narrows below the header or 12 columns, nor a column not named elidable") {
  const std::vector<std::string> header{"A", "LONG HEADER NAME"};
  const std::vector<std::vector<std::string>> rows{
      {"aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}};
  // Too narrow to fit: each elidable column stops at its floor and the line stays longer than asked.
  CHECK(render_table(header, rows, {10, {0, 1}}) ==
        "A             LONG HEADER NAME\n"
        "aaaaa...aaaa  bbbbbbb...bbbbbb\n");
  CHECK(render_table(header, rows, {10, {}}) == render_table(header, rows));
  CHECK(render_table(header, rows, {10, {7}}) == render_table(header, rows));  // out of range: ignored
}

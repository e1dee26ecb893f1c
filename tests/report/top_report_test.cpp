// `usbsat top` frames: text and JSON Lines goldens over a hand-built frame of
// results::NodeRate (topology/results/top.hpp).
#include <doctest/doctest.h>

#include "report/top_report.hpp"
#include "tests/support/golden.hpp"

using namespace usbsat;

TEST_CASE("top: text and JSON goldens of one frame") {
  report::TopFrame f{"2026-12-01T21:39:50.788Z", 2, 1.0004, {}};
  using topology::Bandwidth;
  f.rows.push_back({{"group:bus", "declared", "group bus", {"loop5", "loop6"}, Bandwidth::from_mbs(40.0)},
                    39.7,
                    39.7,
                    0,
                    0.9925,
                    true,
                    {}});
  f.rows.push_back({{"drive_link:4-1",
                     "drive_link",
                     "USB 3.2 Gen 1 UAS link of 4-1 (Portable SSD T5)",
                     {"sdb"},
                     Bandwidth::from_mbs(400.0)},
                    12.5,
                    10,
                    2.5,
                    0.03125,
                    false,
                    {}});
  f.rows.push_back({{"controller:0000:03:00.0",
                     "controller",
                     "xHCI controller 0000:03:00.0 (ASM1042)",
                     {"sdb", "sdc"},
                     std::nullopt},
                    12.5,
                    10,
                    2.5,
                    std::nullopt,
                    false,
                    {"sdc"}});
  testing::check_golden("top_frame.txt", report::render_top_text(f));
  testing::check_golden("top_frame.jsonl", report::render_top_json(f));
  report::TopFrame empty{"", 1, 1, {}};
  CHECK(report::render_top_text(empty).find("nothing to measure") != std::string::npos);
}

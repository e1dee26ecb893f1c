#include <doctest/doctest.h>

#include <vector>

#include "report/error_report.hpp"

using namespace usbsat;

TEST_CASE("render_error_json: code, kind, escaped message and the diagnostics") {
  const std::vector<topology::Diagnostic> d{{topology::Severity::Error, "/dev/sdx", "cannot open: \"busy\""}};
  CHECK(report::render_error_json({5, "refused", "refused: /tmp/a\tb backs /dev/loop0"}, d) ==
        R"({
  "error": {
    "code": 5,
    "kind": "refused",
    "message": "refused: /tmp/a\tb backs /dev/loop0"
  },
  "diagnostics": [
    {
      "severity": "error",
      "where": "/dev/sdx",
      "message": "cannot open: \"busy\""
    }
  ]
}
)");
  CHECK(report::render_error_json({2, "usage", "x"}, {}).find("\"diagnostics\": []") != std::string::npos);
}

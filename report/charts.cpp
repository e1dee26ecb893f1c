#include "report/charts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html_escape.hpp"
#include "topology/words/describe.hpp"

namespace usbsat::report {
namespace {

constexpr const char* kSeriesColours[] = {"#1c7ed6", "#e8590c", "#2f9e44", "#ae3ec9",
                                          "#f08c00", "#0c8599", "#c2255c", "#5c940d"};
constexpr double kTop = 40, kBottom = 56, kLeft = 64, kRight = 16, kPlotHeight = 200;
/// nice_ceiling()'s largest answer: 10 * its power of ten stays finite.
constexpr double kLargestCeiling = 1e307;

std::string num(double v) {
  return fmt::format("{:.1f}", v);
}

/// The value axis: horizontal grid lines with their MB/s labels.
std::string value_axis(double top, double width) {
  std::string out;
  for (int i = 0; i <= 4; ++i) {
    const double v = top * i / 4;
    const double y = kTop + kPlotHeight - kPlotHeight * i / 4;
    out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#dee2e6"/>)", num(kLeft), num(y),
                       num(width - kRight), num(y));
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" font-size="10">{:g}</text>)", num(kLeft - 6),
                       num(y + 3), v);
  }
  out += fmt::format(
      R"~(<text x="12" y="{}" font-size="10" transform="rotate(-90 12 {})" text-anchor="middle">MB/s</text>)~",
      num(kTop + kPlotHeight / 2), num(kTop + kPlotHeight / 2));
  return out;
}

/// The y coordinate of value `v` on an axis up to `top`: negative and NaN values at 0, larger ones at the
/// top, so no value, however broken, gives a coordinate that is not a number.
double y_of(double v, double top) {
  if (!(v >= 0)) v = 0;
  return kTop + kPlotHeight - kPlotHeight * (std::min(v, top) / top);  // the ratio first: no overflow
}

/// Wide enough for the title (12 px bold Helvetica: about 7.5 px a character, measured in Chromium).
double title_width(const std::string& title) {
  return kLeft + 7.5 * static_cast<double>(title.size()) + kRight;
}

std::string open_svg(double width, double height, const std::string& title, const char* cls) {
  return fmt::format(
      R"(<svg class="{}" width="{}" height="{}" viewBox="0 0 {} {}" role="img" font-family="Helvetica,Arial,sans-serif">)"
      R"(<title>{}</title><text x="{}" y="16" font-size="12" font-weight="bold">{}</text>)",
      cls, num(width), num(height), num(width), num(height), html_escape(title), num(kLeft),
      html_escape(title));
}

}  // namespace

double nice_ceiling(double max) {
  if (!(max > 1)) return 1;
  if (!(max <= kLargestCeiling)) return kLargestCeiling;  // also infinity: the axis stays finite
  const double p = std::pow(10.0, std::floor(std::log10(max)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (max <= m * p * (1 + 1e-12)) return m * p;
  return 10 * p;
}

double chart_max(const BarChart& c) {
  double max = c.plateau.value_or(0);
  for (const auto& g : c.groups) {
    for (const auto& b : g.bars) max = std::max(max, b.value);
    max = std::max(max, g.predicted.value_or(0));
  }
  return max;
}

std::string render_bar_chart_svg(const BarChart& c) {
  constexpr double kBar = 26, kGap = 4, kGroupGap = 28;
  double plot = 0;
  for (const auto& g : c.groups) plot += static_cast<double>(g.bars.size()) * (kBar + kGap) + kGroupGap;
  const double top = nice_ceiling(std::max(chart_max(c), c.scale_max) * 1.05);
  const double width = std::max({kLeft + plot + kRight, 360.0, title_width(c.title)});
  const double height = kTop + kPlotHeight + 40;  // the phase labels; the verdict is the page's text
  std::string out = open_svg(width, height, c.title, "chart bars");
  // Legend.
  out += fmt::format(
      R"(<g font-size="10"><rect x="{0}" y="22" width="10" height="10" fill="#74c0fc"/><text x="{1}" y="31">drive</text>)"
      R"(<rect x="{2}" y="22" width="10" height="10" fill="#1864ab"/><text x="{3}" y="31">aggregate</text>)"
      R"(<line x1="{4}" y1="27" x2="{5}" y2="27" stroke="#212529" stroke-dasharray="4 2" stroke-width="2"/><text x="{6}" y="31">model</text>)"
      R"(<line x1="{7}" y1="27" x2="{8}" y2="27" stroke="#e03131" stroke-dasharray="6 3" stroke-width="2"/><text x="{9}" y="31">{10}</text></g>)",
      num(kLeft), num(kLeft + 14), num(kLeft + 50), num(kLeft + 64), num(kLeft + 120), num(kLeft + 140),
      num(kLeft + 144), num(kLeft + 186), num(kLeft + 206), num(kLeft + 210),
      c.plateau ? "plateau " + topology::mbs_text(*c.plateau, 1) : "plateau");
  out += value_axis(top, width);
  double x = kLeft + kGroupGap / 2;
  for (const auto& g : c.groups) {
    const double start = x;
    for (const auto& b : g.bars) {
      const double y = y_of(b.value, top);
      out += fmt::format(
          R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}</title></rect>)", num(x),
          num(y), num(kBar), num(kTop + kPlotHeight - y), b.aggregate ? "#1864ab" : "#74c0fc",
          html_escape(b.label), topology::mbs_text(b.value, 1));
      out += fmt::format(R"(<text x="{}" y="{}" font-size="9" text-anchor="middle">{:.0f}</text>)",
                         num(x + kBar / 2), num(y - 3), b.value);
      out += fmt::format(R"(<text x="{}" y="{}" font-size="9" text-anchor="middle">{}</text>)",
                         num(x + kBar / 2), num(kTop + kPlotHeight + 12),
                         html_escape(b.aggregate ? "all" : b.label));
      x += kBar + kGap;
    }
    const double end = x - kGap;
    if (g.predicted) {
      const double y = y_of(*g.predicted, top);
      out += fmt::format(
          R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#212529" stroke-dasharray="4 2" stroke-width="2"><title>model: {}</title></line>)",
          num(start - 3), num(y), num(end + 3), num(y), topology::mbs_text(*g.predicted, 1));
    }
    out += fmt::format(R"(<text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>)",
                       num((start + end) / 2), num(kTop + kPlotHeight + 30), html_escape(g.label));
    x += kGroupGap;
  }
  if (c.plateau) {
    const double y = y_of(*c.plateau, top);
    out += fmt::format(
        R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#e03131" stroke-dasharray="6 3" stroke-width="2">)"
        R"(<title>plateau {}</title></line>)",
        num(kLeft), num(y), num(width - kRight), num(y), topology::mbs_text(*c.plateau, 1));
  }
  return out + "</svg>";
}

std::string render_line_chart_svg(const LineChart& c) {
  constexpr double kPlotWidth = 560;
  std::size_t points = 0;
  double max = 0;
  for (const auto& s : c.series) {
    points = std::max(points, s.values.size());
    for (double v : s.values) max = std::max(max, v);
  }
  const double top = nice_ceiling(max * 1.05);
  const double width = std::max(kLeft + kPlotWidth + kRight, title_width(c.title));
  const double height = kTop + kPlotHeight + kBottom + 14.0 * static_cast<double>(c.series.size());
  std::string out = open_svg(width, height, c.title, "chart lines");
  out += value_axis(top, width);
  const double seconds = static_cast<double>(std::max<std::size_t>(points, 1));
  auto x_of = [&](double s) { return kLeft + kPlotWidth * s / seconds; };
  // Time axis: a tick per second up to 10 ticks, else every n-th.
  const std::size_t every = std::max<std::size_t>(1, (points + 9) / 10);
  for (std::size_t s = 0; s <= points; s += every)
    out += fmt::format(R"(<text x="{}" y="{}" font-size="10" text-anchor="middle">{}</text>)",
                       num(x_of(static_cast<double>(s))), num(kTop + kPlotHeight + 14), s);
  out += fmt::format(R"(<text x="{}" y="{}" font-size="10" text-anchor="middle">seconds</text>)",
                     num(kLeft + kPlotWidth / 2), num(kTop + kPlotHeight + 30));
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const auto& s = c.series[i];
    const char* colour = kSeriesColours[i % std::size(kSeriesColours)];
    std::string pts;
    // Sample k covers second k..k+1: drawn at its end.
    for (std::size_t k = 0; k < s.values.size(); ++k)
      pts += fmt::format("{}{},{}", pts.empty() ? "" : " ", num(x_of(static_cast<double>(k + 1))),
                         num(y_of(s.values[k], top)));
    if (s.values.size() == 1) pts = fmt::format("{},{} {}", num(kLeft), num(y_of(s.values[0], top)), pts);
    out += fmt::format(
        R"(<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title></polyline>)",
        colour, pts, html_escape(s.label));
    const double ly = kTop + kPlotHeight + 44 + 14.0 * static_cast<double>(i);
    out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"/>)"
                       R"(<text x="{}" y="{}" font-size="10">{}</text>)",
                       num(kLeft), num(ly - 3), num(kLeft + 16), num(ly - 3), colour, num(kLeft + 20),
                       num(ly), html_escape(s.label));
  }
  return out + "</svg>";
}

}  // namespace usbsat::report

#!/usr/bin/env python3
"""Draws the output of Scripts/bench/build-cost.sh as an SVG: the clean debug build of the
generated target (CPU seconds, net of an empty target) and the peak memory of its largest
compiler, against the number of endpoints, for cachegen and swift-openapi-generator.

    Scripts/bench/build-cost.sh chart      # measures, writes Benchmarks/build-cost.txt, runs this

or by hand, on any of its outputs:

    Scripts/bench/build-cost.sh 120:cycle:both:noedits 500:cycle:both:noedits >cost.txt
    Scripts/bench/build-cost-chart.py cost.txt cost.svg

A first line that starts with "measured" (`build-cost.sh chart` writes the date, the commit and
the command there) is the chart's caption, so the picture says when and how it was measured.

Both axes of figures are logarithmic, so a ratio is the same height wherever it sits. A
build the watchdog stopped (`killed at 10 GB`) is drawn as an open marker at what it had
used when it was stopped, labelled "stopped at", with a dashed line into it: the true
figure is higher. Several runs of one
case are drawn as their median. Plain Python: no plotting library.
"""
import math
from textwrap import wrap
from xml.sax.saxutils import escape
import re
import statistics
import sys

CASE = re.compile(r"^== (\d+) endpoints, (\d+) models, (\w+)")
CLEAN = re.compile(
    r"^  (cachegen|swift-openapi-generator) clean debug build .*?: "
    r"(?:(?P<cpu>[\d.]+) s CPU, [\d.]+ s wall, peak (?P<peak>\d+) MB; net of empty target: (?P<net>[-\d.]+) s CPU"
    r"|killed at (?P<cap>\d+) GB after [\d.]+ s wall / (?P<killed_cpu>[\d.]+) s CPU)")
SIDES = [("cachegen", "#1b6ac9"), ("swift-openapi-generator", "#d9480f")]


def read(path):
    """{(side, endpoints): [(cpu net, peak MB or None, killed)]} from build-cost.sh's output."""
    points, endpoints = {}, None
    for line in open(path, encoding="utf-8"):
        case = CASE.match(line)
        if case:
            endpoints = int(case.group(1))
            continue
        clean = CLEAN.match(line)
        if not clean or endpoints is None:
            continue
        side = clean.group(1)
        if clean.group("cap"):
            point = (float(clean.group("killed_cpu")), int(clean.group("cap")) * 1024, True)
        else:
            point = (float(clean.group("net")), int(clean.group("peak")), False)
        points.setdefault((side, endpoints), []).append(point)
    return points


def medians(points):
    result = {}
    for key, runs in points.items():
        killed = any(run[2] for run in runs)
        result[key] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), killed)
    return result


def nice_ticks(low, high):
    """Powers of ten and their 2 and 5 multiples between low and high."""
    ticks = []
    for exponent in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for factor in (1, 2, 5):
            value = factor * 10 ** exponent
            if low <= value <= high:
                ticks.append(value)
    return ticks


def label(value):
    return f"{value:g}" if value < 10_000 else f"{value / 1000:g}k"


def panel(x0, title, unit, series, endpoints, stopped, width=380, height=300):
    """One chart: x the endpoints (linear), y the figure (log10)."""
    values = [v for points in series.values() for (_, v, _) in points]
    low = 10 ** math.floor(math.log10(min(values)))
    high = 10 ** math.ceil(math.log10(max(values)))
    left, top, plot_w, plot_h = x0 + 56, 40, width - 76, height - 90
    x_max = max(endpoints) * 1.08

    def x(n):
        return left + plot_w * n / x_max

    def y(v):
        return top + plot_h * (1 - (math.log10(v) - math.log10(low)) / (math.log10(high) - math.log10(low)))

    out = [f'<text x="{x0 + width / 2}" y="22" text-anchor="middle" font-weight="bold">{title}</text>']
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>')
    for tick in nice_ticks(low, high):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11">{label(tick)}</text>')
    for n in endpoints:
        out.append(f'<text x="{x(n):.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11">{n:,}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 34}" text-anchor="middle" font-size="12">endpoints</text>')
    out.append(f'<text x="{x0 + 14}" y="{top + plot_h / 2}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 + 14} {top + plot_h / 2})">{unit}</text>')
    for side, colour in SIDES:
        points = series.get(side, [])
        if not points:
            continue
        # A segment into a stopped build is dashed: its point is a floor, not a figure.
        for (n0, v0, _), (n1, v1, killed) in zip(points, points[1:]):
            dash = ' stroke-dasharray="5,4"' if killed else ""
            out.append(f'<line x1="{x(n0):.1f}" y1="{y(v0):.1f}" x2="{x(n1):.1f}" y2="{y(v1):.1f}" '
                       f'stroke="{colour}" stroke-width="2"{dash}/>')
        for n, v, killed in points:
            fill = "white" if killed else colour
            out.append(f'<circle cx="{x(n):.1f}" cy="{y(v):.1f}" r="4" fill="{fill}" stroke="{colour}" stroke-width="2"/>')
            figure = label(round(v, 1) if v < 100 else round(v))
            text = stopped(figure) if killed else figure
            # The last column's labels sit to the left of their point, inside the chart.
            anchor, dx = ("end", -6) if n == max(endpoints) else ("start", 6)
            out.append(f'<text x="{x(n) + dx:.1f}" y="{y(v) - 8:.1f}" font-size="10" fill="{colour}" '
                       f'text-anchor="{anchor}">{text}</text>')
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    figures = medians(read(sys.argv[1]))
    with open(sys.argv[1], encoding="utf-8") as file:
        first = file.readline().strip()
    caption = first if first.startswith("measured") else ""
    if not figures:
        print(f"error: no clean-build rows in {sys.argv[1]}; is it build-cost.sh's output?", file=sys.stderr)
        return 1
    endpoints = sorted({n for _, n in figures})
    cpu, peak = {}, {}
    for side, _ in SIDES:
        rows = sorted((n, figures[(side, n)]) for n in endpoints if (side, n) in figures)
        cpu[side] = [(n, max(f[0], 0.1), f[2]) for n, f in rows]
        peak[side] = [(n, f[1], f[2]) for n, f in rows]
    width = 800
    body = panel(0, "Clean debug build, generated target", "CPU s, net of an empty target", cpu, endpoints,
                 lambda figure: f"stopped after {figure}")
    body += panel(400, "Peak memory of one compiler", "MB", peak, endpoints, lambda _: "cap")
    legend_y = 326
    for i, (side, colour) in enumerate(SIDES):
        x0 = 120 + i * 260
        body.append(f'<line x1="{x0}" x2="{x0 + 24}" y1="{legend_y}" y2="{legend_y}" stroke="{colour}" stroke-width="2"/>')
        body.append(f'<text x="{x0 + 30}" y="{legend_y + 4}" font-size="12">{side}</text>')
    body.append(f'<text x="{width / 2}" y="{legend_y + 22}" text-anchor="middle" font-size="10" fill="#555">'
                'Open marker: stopped by the memory cap; the true figure is higher. Log scales.</text>')
    height = 360
    for i, line in enumerate(wrap(caption, 130)):
        body.append(f'<text x="{width / 2}" y="{legend_y + 40 + 14 * i}" text-anchor="middle" font-size="10" '
                    f'fill="#555">{escape(line)}</text>')
        height = legend_y + 50 + 14 * i
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="Helvetica, Arial, sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
           + "\n".join(body) + "\n</svg>\n")
    open(sys.argv[2], "w", encoding="utf-8").write(svg)
    print(f"wrote {sys.argv[2]}: {len(figures)} points, endpoints {', '.join(map(str, endpoints))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

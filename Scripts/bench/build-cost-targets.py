#!/usr/bin/env python3
"""Prints issue 28's targets as a Markdown table from what `Scripts/bench/build-cost.sh targets`
recorded: each figure before and after (medians of the runs), the target, and whether the after
figure holds.

Usage: Scripts/bench/build-cost-targets.py TARGETS_TXT [BEFORE_LABEL]

TARGETS_TXT has one line per measurement, "FIGURE SIDE VALUE", SIDE P (before), A (after) or
B (swift-openapi-generator). A figure missing on a side is printed as "–" and does not hold.
Not a test: it exits 0 whatever the numbers are.
"""
import statistics
import sys
from collections import defaultdict


def load(path):
    values = defaultdict(list)
    with open(path) as lines:
        for line in lines:
            parts = line.split()
            if len(parts) == 3:
                try:
                    values[(parts[0], parts[1])].append(float(parts[2]))
                except ValueError:
                    pass   # a figure the script could not read (an empty overhead, say)
    return {key: statistics.median(runs) for key, runs in values.items()}


def main():
    figures = load(sys.argv[1])
    before_label = sys.argv[2] if len(sys.argv) > 2 else "before"

    def get(figure, side):
        return figures.get((figure, side))

    def ratio(numerator, denominator):
        return numerator / denominator if numerator is not None and denominator else None

    rows = []   # (label, before, after, target text, holds(after) or None, format)

    def seconds(value):
        return f"{value:.1f} s"

    for shape, depth in (("cycle", ""), ("chain", ", 166 models deep")):
        prefix = f"500-{shape}"
        for side in ("P", "A"):
            if get(f"{prefix}.killed", side):
                figures[(f"{prefix}.clean-wall", side)] = None
        rows.append((f"500 endpoints, {shape}{depth}: clean debug build, net (wall; CPU)",
                     (get(f"{prefix}.clean-wall", "P"), get(f"{prefix}.clean-cpu", "P")),
                     (get(f"{prefix}.clean-wall", "A"), get(f"{prefix}.clean-cpu", "A")),
                     "≤ 16 s", lambda v: v[0] is not None and v[0] <= 16,
                     lambda v: "–" if v[0] is None else f"{v[0]:.1f} s; {v[1]:.1f} s CPU"))
        rows.append((f"500, {shape}: peak memory of one compiler",
                     get(f"{prefix}.peak", "P"), get(f"{prefix}.peak", "A"),
                     "≤ 490 MB", lambda v: v <= 490, lambda v: f"{v:.0f} MB"))
        rows.append((f"500, {shape}: rebuild after a property added to one model (wall)",
                     get(f"{prefix}.edit-wall", "P"), get(f"{prefix}.edit-wall", "A"),
                     "≤ 10 s", lambda v: v <= 10, seconds))
    sog_cpu, sog_peak = get("120-cycle.clean-cpu", "B"), get("120-cycle.peak", "B")
    rows.append(("120 endpoints, cycle: swift-openapi-generator's CPU ÷ cachegen's (clean, net)",
                 ratio(sog_cpu, get("120-cycle.clean-cpu", "P")), ratio(sog_cpu, get("120-cycle.clean-cpu", "A")),
                 "≥ 10×", lambda v: v >= 10, lambda v: f"{v:.1f}×"))
    rows.append(("120, cycle: cachegen's peak memory ÷ swift-openapi-generator's",
                 ratio(get("120-cycle.peak", "P"), sog_peak), ratio(get("120-cycle.peak", "A"), sog_peak),
                 "≤ 1/10", lambda v: v <= 0.1, lambda v: f"1/{1 / v:.1f}"))
    rows.append(("files an app's target compiles for a 5-endpoint spec",
                 get("small-files", "P"), get("small-files", "A"),
                 "≤ 3", lambda v: v <= 3, lambda v: f"{v:.0f}"))
    rows.append(("the plugin's overhead on a clean debug build of Examples/NewsDemo",
                 get("overhead", "P"), get("overhead", "A"),
                 "≤ +5 s", lambda v: v <= 5, lambda v: f"{v:+.1f} s"))
    rows.append(("the same, the plugins running a prebuilt cachegen (a release's artifact bundle)",
                 get("overhead-prebuilt", "P"), get("overhead-prebuilt", "A"),
                 "≤ +5 s", lambda v: v <= 5, lambda v: f"{v:+.1f} s"))
    for workload in ("client-hit", "layer-hit", "key"):
        before, after = get(f"instructions-{workload}", "P"), get(f"instructions-{workload}", "A")
        change = ratio(after, before)
        rows.append((f"run time: instructions per call, `{workload}`" + (f" (after ÷ before {change:.3f})" if change else ""),
                     before, after, "unchanged (≤ 1.05×)",
                     lambda v, b=before: b is not None and v / b <= 1.05, lambda v: f"{v:,.0f}"))

    def shown(value, format):
        if value is None or (isinstance(value, tuple) and value[0] is None):
            return "–"
        return format(value)

    print(f"| figure | before ({before_label}) | after | target | holds |")
    print("| --- | --- | --- | --- | --- |")
    for label, before, after, target, holds, format in rows:
        missing = after is None or (isinstance(after, tuple) and after[0] is None)
        verdict = "–" if missing else ("**yes**" if holds(after) else "no")
        print(f"| {label} | {shown(before, format)} | {shown(after, format)} | {target} | {verdict} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the benchmarks in Benchmarks/ once and prints every figure beside its target as a
Markdown table, with ratios of medians taken from the same run.

Usage (from the repository root):
  python3 Scripts/bench/report.py                 # run all benchmark targets, then report
  python3 Scripts/bench/report.py --target CacheHit --target Scale
  python3 Scripts/bench/report.py --results DIR   # report on percentiles exported earlier
  python3 Scripts/bench/report.py --process       # also time the whole `cachegen generate`
                                                  # process (Scripts/bench/generator-process.sh)

The benchmarks are `swift package --package-path Benchmarks benchmark`; this script asks
them for --format histogramPercentiles and reads the medians (p50). Not a test: it exits 0
whatever the numbers are. The build overhead (item 7) is Scripts/bench/build-overhead.sh.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_benchmarks(directory, targets):
    command = ["swift", "package", "--package-path", os.path.join(REPO, "Benchmarks"),
               "--allow-writing-to-directory", directory, "benchmark",
               "--format", "histogramPercentiles", "--path", directory, "--no-progress"]
    for target in targets:
        command += ["--target", target]
    print("+ " + " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, stdout=sys.stderr)


def load(directory):
    """{(benchmark name with _ for spaces, metric raw name): (p50, p0, unit text)}"""
    results = {}
    for path in glob.glob(os.path.join(directory, "*.histogram.percentiles.tsv")):
        name = os.path.basename(path)[: -len(".histogram.percentiles.tsv")]
        # <baseline>.<target>.<benchmark name>.<metric>
        parts = name.split(".", 2)
        if len(parts) < 3:
            continue
        benchmark, metric = parts[2].rsplit(".", 1)
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
        unit = lines[0].split("\t", 1)[1]
        values = dict(line.split("\t") for line in lines[1:] if "\t" in line)
        results[(benchmark, metric)] = (float(values["50"]), float(values["0"]), unit.rstrip(" *"))
    return results


class Report:
    def __init__(self, results):
        self.results = results
        self.rows = []

    def value(self, benchmark, metric="wallClock", percentile="p50"):
        key = (benchmark.replace(" ", "_").replace("/", "_"), metric)
        found = self.results.get(key)
        if found is None:
            return None, None
        median, minimum, unit = found
        value = median if percentile == "p50" else minimum
        # Normalise times to microseconds.
        for suffix, factor in (("(ns)", 0.001), ("(μs)", 1.0), ("(us)", 1.0), ("(ms)", 1000.0), ("(s)", 1e6)):
            if unit.endswith(suffix):
                return value * factor, "µs"
        return value, unit

    def absolute(self, item, figure, benchmark, target_us=None, metric="wallClock", target_text=None):
        value, _ = self.value(benchmark, metric)
        if value is None:
            self.rows.append((item, figure, "not run", target_text or "", ""))
            return None
        minimum, _ = self.value(benchmark, metric, "p0")
        holds = "" if target_us is None else ("yes" if value <= target_us else "**no**")
        target = target_text or (f"≤ {fmt(target_us)}" if target_us else "")
        self.rows.append((item, figure, f"{fmt(value)} (minimum {fmt(minimum)})", target, holds))
        return value

    def ratio(self, item, figure, numerator, denominator, target=None, metric="wallClock", note=""):
        """The ratio of medians (judged against the target), with the ratio of minimums
        beside it: under load the minimums are the steadier estimate of the real cost."""
        a, _ = self.value(numerator, metric)
        b, _ = self.value(denominator, metric)
        if a is None or b is None or b == 0:
            self.rows.append((item, figure, "not run", f"≤ {target:.2f}×" if target else "", ""))
            return None
        a0, _ = self.value(numerator, metric, "p0")
        b0, _ = self.value(denominator, metric, "p0")
        r = a / b
        minimums = f"; minimums {a0 / b0:.2f}×" if a0 and b0 else ""
        measured = f"{r:.2f}× ({fmt(a)} vs {fmt(b)}{minimums}){note}"
        holds = "" if target is None else ("yes" if r <= target else "**no**")
        self.rows.append((item, figure, measured, f"≤ {target:.2f}×" if target else "report", holds))
        return r

    def paired(self, item, figure, benchmark, numerator_metric, denominator_metric, target=None):
        """A ratio from one benchmark that timed both sides in every iteration (custom
        metrics in ns): medians, with the minimums beside them."""
        a, _ = self.value(benchmark, numerator_metric)
        b, _ = self.value(benchmark, denominator_metric)
        if a is None or b is None or b == 0:
            self.rows.append((item, figure, "not run", f"≤ {target:.2f}×" if target else "", ""))
            return None
        a0, _ = self.value(benchmark, numerator_metric, "p0")
        b0, _ = self.value(benchmark, denominator_metric, "p0")
        a, b, a0, b0 = (v / 1000 for v in (a, b, a0, b0))  # ns → µs
        r = a / b
        measured = f"**{r:.2f}×** ({fmt(a)} vs {fmt(b)}; minimums {a0 / b0:.2f}×)"
        holds = "" if target is None else ("yes" if r <= target else "**no**")
        self.rows.append((item, figure, measured, f"≤ {target:.2f}×" if target else "report", holds))
        return r

    def text(self, item, figure, measured, target="", holds=""):
        self.rows.append((item, figure, measured, target, holds))

    def markdown(self):
        lines = ["| # | figure | measured (median) | target | holds |", "| --- | --- | --- | --- | --- |"]
        for row in self.rows:
            lines.append("| " + " | ".join(row) + " |")
        return "\n".join(lines)


def fmt(us):
    if us < 1:
        return f"{us * 1000:,.0f} ns"
    if us >= 1000:
        return f"{us / 1000:,.2f} ms"
    if us >= 100:
        return f"{us:,.0f} µs"
    return f"{us:,.1f} µs"


def build_report(results, process_line):
    r = Report(results)
    r.absolute("1", "generator in process: parse + validate + render, 1,000 endpoints / 330 models",
               "Generator: 1,000-endpoint spec, parse + validate + render", target_us=50_000)
    if process_line:
        r.text("1", "`cachegen generate` whole process, same spec", process_line[0], "≤ 250 ms", process_line[1])
    for size in ("1 KB", "10 KB", "100 KB"):
        r.paired("2", f"hit {size}: `client.value(…, .cacheFirst)` from FileCacheStore ÷ floor, paired",
                 f"Paired hit {size}: client cacheFirst FileCacheStore vs floor", "cachegen_ns", "floor_ns", target=1.15)
    for size in ("1 KB", "10 KB", "100 KB"):
        floor = f"Hit {size}: floor Data(contentsOf:) + JSONDecoder"
        r.ratio("2", f"hit {size}: the same, as separate benchmarks",
                f"Hit {size}: client cacheFirst, FileCacheStore", floor)
        r.ratio("2", f"hit {size}: `store.entry(for:)` + decode ÷ floor",
                f"Hit {size}: store.entry + decode, FileCacheStore", floor)
        r.ratio("2", f"hit {size}: `store.entry(for:)` alone ÷ `Data(contentsOf:)` alone",
                f"Hit {size}: store.entry only, FileCacheStore", f"Hit {size}: floor Data(contentsOf:) only")
        r.ratio("2", f"hit {size}: runtime decoder ÷ `JSONDecoder` (`.iso8601`), decode only",
                f"Hit {size}: decode only, runtime decoder", f"Hit {size}: decode only, JSONDecoder .iso8601")
    for size in ("1 KB", "10 KB", "100 KB"):
        r.absolute("2", f"in-memory layer hit {size}: `client.value(…, .cacheFirst)`, decoded value held by the client",
                   f"Hit {size}: client cacheFirst, in-memory layer over FileCacheStore", target_us=2.0)
    r.absolute("2", "`MemoryCacheStore.entry(for:)`, key ready", "Memory: MemoryCacheStore.entry (ready key)")
    r.absolute("2", "`client.value(…, .cacheFirst)` over MemoryCacheStore, 1 KB, no decoded layer (key + lookup + decode)",
               "Hit 1 KB: client cacheFirst, MemoryCacheStore")
    r.absolute("2", "building a `CacheKey`", "Memory: CacheKey init")
    r.paired("3", "hit, client cacheFirst: 100,000 entries ÷ 1,000, paired",
             "Paired scale: hit, client cacheFirst, 100,000 vs 1,000 entries", "entries_100000_ns", "entries_1000_ns",
             target=1.2)
    r.ratio("3", "hit, client cacheFirst: 100,000 entries ÷ 1,000, separate benchmarks",
            "Scale 100,000 entries: hit, client cacheFirst", "Scale 1,000 entries: hit, client cacheFirst")
    r.ratio("3", "hit, `store.entry(for:)`: 100,000 entries ÷ 1,000",
            "Scale 100,000 entries: store.entry only", "Scale 1,000 entries: store.entry only")
    r.ratio("3", "open store: 100,000 entries ÷ 1,000 (must not grow)",
            "Scale 100,000 entries: open store", "Scale 1,000 entries: open store", target=1.2)
    r.absolute("3", "open store, 100,000 entries", "Scale 100,000 entries: open store")
    r.ratio("3", "open store + first hit: 100,000 entries ÷ 1,000",
            "Scale 100,000 entries: open store + first hit", "Scale 1,000 entries: open store + first hit")
    for size in ("1 KB", "10 KB"):
        r.paired("4", f"fresh {size}: `networkFirst` (fetch, decode; FileCacheStore write behind the call, untimed) ÷ raw URLSession + decode, paired",
                 f"Paired fresh {size}: client networkFirst FileCacheStore vs raw URLSession", "cachegen_ns", "raw_ns",
                 target=1.10)
    for size in ("1 KB", "10 KB"):
        raw = f"Fresh {size}: raw URLSession + JSONDecoder"
        r.ratio("4", f"fresh {size}: the same back to back, each write competing with the next calls (separate benchmarks)",
                f"Fresh {size}: client networkFirst, FileCacheStore", raw)
        r.ratio("4", f"fresh {size}: `networkFirst` over MemoryCacheStore ÷ raw, back to back",
                f"Fresh {size}: client networkFirst, MemoryCacheStore", raw)
    metric = "requests_seen_by_server"
    for label, target in (("client networkFirst", "1"), ("raw URLSession", "")):
        value, _ = r.value(f"Merge: 100 concurrent identical calls, {label}", metric)
        if value is None:
            # The exported metric name is the custom metric's name; accept either spelling.
            value, _ = r.value(f"Merge: 100 concurrent identical calls, {label}", "requests seen by server")
        measured = "not run" if value is None else f"{value:g} requests"
        holds = "" if not target or value is None else ("yes" if value <= float(target) else "**no**")
        r.text("5", f"100 concurrent identical calls, {label}: requests the server saw", measured, target, holds)
    for size in ("1 KB", "10 KB", "100 KB"):
        r.ratio("6", f"hit {size}: GRDB read + decode ÷ `client.value(…, .cacheFirst)` FileCacheStore",
                f"Hit {size}: GRDB read + decode", f"Hit {size}: client cacheFirst, FileCacheStore")
        r.ratio("6", f"write {size}: `FileCacheStore.setEntry` ÷ GRDB upsert",
                f"Write {size}: FileCacheStore.setEntry", f"Write {size}: GRDB upsert")
    return r


def process_timing():
    output = subprocess.run(["bash", os.path.join(REPO, "Scripts", "bench-generator-process.sh"), "20"],
                            check=True, capture_output=True, text=True, env={**os.environ})
    sys.stderr.write(output.stderr)
    sys.stderr.write(output.stdout)
    match = re.search(r"median\s+([\d.]+) ms", output.stdout)
    if not match:
        return None
    median = float(match.group(1))
    return (f"{median:.0f} ms", "yes" if median <= 250 else "**no**")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", help="a folder of exported percentiles; skips running the benchmarks")
    parser.add_argument("--target", action="append", default=[], help="run only these benchmark targets")
    parser.add_argument("--process", action="store_true", help="also time the whole cachegen process")
    args = parser.parse_args()
    directory = args.results
    if directory is None:
        directory = tempfile.mkdtemp(prefix="cachegen-bench-results-")
        run_benchmarks(directory, args.target)
    process_line = process_timing() if args.process else None
    report = build_report(load(directory), process_line)
    load_average = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
    print(f"Results: {directory}; {os.cpu_count()} cores, load average now {' '.join(load_average)}\n")
    print(report.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())

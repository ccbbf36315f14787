#!/usr/bin/env python3
"""ARCHITECTURE.md's tables say what each target depends on, and Package.swift and the code agree.

One table per pipeline, `| target | …`, one row per target of Package.swift in that part of
the map. The third column must be the target's `dependencies` in Package.swift, and those must
be exactly the package's modules its files import (none undeclared, none unused). A wrong
arrow already fails to compile; this keeps the map saying so.

    Scripts/check/architecture.py           # exit 1, naming each row that differs
    Scripts/check/architecture.py --write   # rewrite the column from Package.swift

It also fails when a target has no row or a row names no target, so the map covers the code.
A dependency that should not be there is fixed in the code, not in the table.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAP = os.path.join(ROOT, "ARCHITECTURE.md")
PACKAGE = os.path.join(ROOT, "Package.swift")
# The section of ARCHITECTURE.md that holds each table, and the targets it must list.
TARGET_TABLES = [("## Pipeline 1", re.compile(r"^(CacheGen\w*|cachegen)$")), ("## Pipeline 2", re.compile(r"^CachedClient\w*$"))]
TARGET = re.compile(
    r'\.(?:target|executableTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?(?:,\s*path:\s*"([^"]+)")?')
IMPORT = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*import\s+(\w+)", re.M)


def swift_files(folder):
    for directory, _, names in os.walk(folder):
        if ".docc" in directory:
            continue
        for name in names:
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def cell(names):
    return ", ".join(f"`{n}`" for n in sorted(names)) if names else "nothing"


def package_targets():
    """Each target of Package.swift: its dependencies and its folder."""
    targets = {}
    for name, dependencies, path in TARGET.findall(open(PACKAGE, encoding="utf-8").read()):
        listed = set(re.findall(r'"(\w+)"', dependencies))
        targets[name] = (listed, os.path.join(ROOT, path or os.path.join("Sources", name)))
    return targets


def section(lines, heading):
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return start, end


def rows(lines, start, end):
    """The rows of the target table in lines[start:end]."""
    inside = False
    for i in range(start, end):
        if lines[i].startswith("| target |"):
            inside = True
        elif inside and not lines[i].startswith("|"):
            inside = False
        match = re.match(r"^\| `([^`]+)` \| (.*) \| (.*) \|$", lines[i]) if inside else None
        if match:
            yield i, match.groups()


def check_targets(lines, heading, pattern, targets, problems, write):
    start, end = section(lines, heading)
    seen = set()
    for i, (name, role, listed) in list(rows(lines, start, end)):
        seen.add(name)
        if name not in targets:
            problems.append(f"ARCHITECTURE.md:{i + 1}: {name} is not a target of Package.swift")
            continue
        declared, folder = targets[name]
        imported = set()
        for path in swift_files(folder):
            imported.update(m for m in IMPORT.findall(open(path, encoding="utf-8").read()) if m in targets)
        for module in sorted(imported - declared):
            problems.append(f"Package.swift: {name} imports {module} without depending on it")
        for module in sorted(declared - imported):
            problems.append(f"Package.swift: {name} depends on {module} and imports nothing of it")
        want = cell(declared)
        if listed != want:
            if write:
                lines[i] = f"| `{name}` | {role} | {want} |"
            else:
                problems.append(f"ARCHITECTURE.md:{i + 1}: {name} depends on {want}, not {listed}")
    for name in sorted(n for n in targets if pattern.match(n) and n not in seen):
        problems.append(f"ARCHITECTURE.md: target {name} has no row in the table under \"{heading}\"")


def main():
    write = "--write" in sys.argv[1:]
    lines = open(MAP, encoding="utf-8").read().split("\n")
    problems = []
    targets = package_targets()
    for heading, pattern in TARGET_TABLES:
        check_targets(lines, heading, pattern, targets, problems, write)
    if write:
        open(MAP, "w", encoding="utf-8").write("\n".join(lines))
    for problem in problems:
        print(problem)
    if problems:
        print("error: ARCHITECTURE.md does not match the code; fix the code, or run "
              "Scripts/check/architecture.py --write if the map is what is out of date")
        return 1
    print("ARCHITECTURE.md matches the code: every target has a row, and each row's "
          "dependencies are Package.swift's and the code's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

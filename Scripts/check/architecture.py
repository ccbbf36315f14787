#!/usr/bin/env python3
"""ARCHITECTURE.md's tables say what each target and folder depends on, and the code agrees.

Two kinds of table, told apart by their first column's heading:
- `| target | …`: one row per target of Package.swift in that part of the map. The third
  column must be the target's `dependencies` in Package.swift, and those must be exactly the
  package's modules its files import (none undeclared, none unused).
- `| folder | …`: one row per folder of one target (Sources/CachedClientRuntime). A folder
  depends on another when its code names a type declared at the top level of the other's
  files (comments and string literals aside).

    Scripts/check/architecture.py           # exit 1, naming each row that differs

    Scripts/check/architecture.py           # exit 1, naming each row that differs
    Scripts/check/architecture.py --write   # rewrite the column from the code

It also fails when a folder has no row or a row names no folder, so the map covers the code.
A dependency that should not be there is fixed in the code, not in the table.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAP = os.path.join(ROOT, "ARCHITECTURE.md")
PACKAGE = os.path.join(ROOT, "Package.swift")
# The section of ARCHITECTURE.md that holds each table: the targets whose names match, or
# the folders of one target.
TARGET_TABLES = [("## Pipeline 1", re.compile(r"^(CacheGen\w*|cachegen)$")), ("## Pipeline 2", re.compile(r"^CachedClient\w*$"))]
FOLDER_TABLES = []
TARGET = re.compile(
    r'\.(?:target|executableTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?(?:,\s*path:\s*"([^"]+)")?')
IMPORT = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*import\s+(\w+)", re.M)
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|open)\s+)*"
    r"(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)", re.M)


def swift_files(folder):
    for directory, _, names in os.walk(folder):
        if ".docc" in directory:
            continue
        for name in names:
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def unit(module_folder, path):
    """The row a file belongs to: its folder (`Store/`, `Store/File/`), or for a file at the
    top its type's file (`Generator+Files.swift` is `Generator.swift`'s row)."""
    relative = os.path.relpath(os.path.dirname(path), module_folder)
    if relative == ".":
        return os.path.basename(path).split("+")[0].removesuffix(".swift") + ".swift"
    return relative + "/"


def code_only(text):
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"/\*[\s\S]*?\*/", "", text)
    return re.sub(r"//.*", "", text)


def dependencies(module_folder):
    files = list(swift_files(module_folder))
    declared = {}
    for path in files:
        for name in DECLARATION.findall(open(path, encoding="utf-8").read()):
            declared.setdefault(name, unit(module_folder, path))
    result = {}
    for path in files:
        own = unit(module_folder, path)
        words = set(re.findall(r"\b[A-Z]\w*\b", code_only(open(path, encoding="utf-8").read())))
        found = result.setdefault(own, set())
        found.update(declared[w] for w in words if w in declared and declared[w] != own)
    return result


def cell(folders):
    return ", ".join(f"`{f}`" for f in sorted(folders)) if folders else "nothing"


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


def rows(lines, start, end, kind):
    """The rows of the table in lines[start:end] whose first heading is `kind`."""
    inside = False
    for i in range(start, end):
        if lines[i].startswith(f"| {kind} |"):
            inside = True
        elif inside and not lines[i].startswith("|"):
            inside = False
        match = re.match(r"^\| `([^`]+)` \| (.*) \| (.*) \|$", lines[i]) if inside else None
        if match:
            yield i, match.groups()


def check_targets(lines, heading, pattern, targets, problems, write):
    start, end = section(lines, heading)
    seen = set()
    for i, (name, role, listed) in list(rows(lines, start, end, "target")):
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


def check_folders(lines, heading, folder, problems, write):
    computed = dependencies(os.path.join(ROOT, folder))
    start, end = section(lines, heading)
    seen = set()
    for i, (name, role, listed) in list(rows(lines, start, end, "folder")):
        seen.add(name)
        if name not in computed:
            problems.append(f"ARCHITECTURE.md:{i + 1}: {name} is not a folder of {folder}")
            continue
        want = cell(computed[name])
        if listed != want:
            if write:
                lines[i] = f"| `{name}` | {role} | {want} |"
            else:
                problems.append(f"ARCHITECTURE.md:{i + 1}: {name} depends on {want}, not {listed}")
    for name in sorted(set(computed) - seen):
        problems.append(f"ARCHITECTURE.md: {folder}/{name} has no row in the table under \"{heading}\"")


def main():
    write = "--write" in sys.argv[1:]
    lines = open(MAP, encoding="utf-8").read().split("\n")
    problems = []
    targets = package_targets()
    for heading, pattern in TARGET_TABLES:
        check_targets(lines, heading, pattern, targets, problems, write)
    for heading, folder in FOLDER_TABLES:
        check_folders(lines, heading, folder, problems, write)
    if write:
        open(MAP, "w", encoding="utf-8").write("\n".join(lines))
    for problem in problems:
        print(problem)
    if problems:
        print("error: ARCHITECTURE.md does not match the code; fix the code, or run "
              "Scripts/check/architecture.py --write if the map is what is out of date")
        return 1
    print("ARCHITECTURE.md matches the code: every target and folder has a row, and each row's "
          "dependencies are Package.swift's and the code's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""ARCHITECTURE.md's folder tables say what each folder depends on, and the code agrees.

For the generator (Sources/CacheGenCore) and the runtime (Sources/CachedClientRuntime), a
folder depends on another when its code names a type declared at the top level of the other's
files (comments and string literals aside). The tables' third column lists those folders; this
script works them out from the code and compares:

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
# The section of ARCHITECTURE.md that holds each module's table, and the module's folder.
MODULES = [("## Pipeline 1", "Sources/CacheGenCore"), ("## Pipeline 2", "Sources/CachedClientRuntime")]
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


def main():
    write = "--write" in sys.argv[1:]
    lines = open(MAP, encoding="utf-8").read().split("\n")
    problems = []
    for heading, folder in MODULES:
        computed = dependencies(os.path.join(ROOT, folder))
        start = next(i for i, line in enumerate(lines) if line.startswith(heading))
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        seen = set()
        for i in range(start, end):
            match = re.match(r"^\| `([^`]+)` \| (.*) \| (.*) \|$", lines[i])
            if not match:
                continue
            name, role, listed = match.groups()
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
    if write:
        open(MAP, "w", encoding="utf-8").write("\n".join(lines))
    for problem in problems:
        print(problem)
    if problems:
        print("error: ARCHITECTURE.md does not match the code; fix the code, or run "
              "Scripts/check/architecture.py --write if the map is what is out of date")
        return 1
    print("ARCHITECTURE.md matches the code: every folder has a row, and each row's dependencies are the code's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

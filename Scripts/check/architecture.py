#!/usr/bin/env python3
"""ARCHITECTURE.md's tables say what each target depends on, and Package.swift and the code agree.

One table per pipeline, `| target | …`, one row per target of Package.swift in that part of
the map. The third column must be the target's `dependencies` in Package.swift, and those must
be exactly the package's modules its files import (none undeclared, none unused). A wrong
arrow already fails to compile; this keeps the map saying so. Every other target of
Package.swift, test and helper targets too, has no row but the same rule: its dependencies are
exactly the modules it imports (an executable a test runs as a child process is depended on,
not imported), so a test target says which layers it tests.

    Scripts/check/architecture.py           # exit 1, naming each row that differs
    Scripts/check/architecture.py --write   # rewrite the column from Package.swift

It also fails when a source target has no row or a row names no target, so the map covers the code.
A dependency that should not be there is fixed in the code, not in the table.

The map cannot drift either (issue 38 item 5). Every name in ARCHITECTURE.md, Benchmarks/README.md
and Scripts/README.md that stands for something in the repository must exist:
  - a path (`Sources/…`, `Retry/`, `HTTP/LinkHeader.swift`, a command's script in a code block):
    from the root, from the document's folder, or, in a target's row, from that target's folder;
    elsewhere a relative path may also be the tail of one (`Conformance/`), never a folder that
    only happens to share a name with one in another target's row;
  - a file name (`RetryPolicy+Attempts.swift`, `CacheRule+Freshness`) somewhere in the repository;
  - a target or product name (`CachedClientCalls`, `_CacheGenCore`) in a Package.swift, or else a
    type declared in the code; in ARCHITECTURE.md any other type-like name (`RequestMerger`) must
    be declared in the repository's Swift;
  - every script under Scripts/ and Benchmarks/ has a row in Scripts/README.md.
Each drifted name is `FILE:LINE: error: …`; the check exits 1.
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAP = os.path.join(ROOT, "ARCHITECTURE.md")
PACKAGE = os.path.join(ROOT, "Package.swift")
# The section of ARCHITECTURE.md that holds each table, and the targets it must list.
TARGET_TABLES = [("## Pipeline 1", re.compile(r"^(CacheGen\w*|cachegen)$")), ("## Pipeline 2", re.compile(r"^CachedClient\w*$"))]
TARGET = re.compile(
    r'\.(target|executableTarget|testTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?(?:,\s*path:\s*"([^"]+)")?')
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
    for kind, name, dependencies, path in TARGET.findall(open(PACKAGE, encoding="utf-8").read()):
        listed = set(re.findall(r'"(\w+)"', dependencies))
        folder = path or os.path.join("Tests" if kind == "testTarget" else "Sources", name)
        targets[name] = (kind, listed, os.path.join(ROOT, folder))
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
            problems.append(f"ARCHITECTURE.md:{i + 1}: error: {name} is not a target of Package.swift")
            continue
        _, declared, _ = targets[name]
        want = cell(declared)
        if listed != want:
            if write:
                lines[i] = f"| `{name}` | {role} | {want} |"
            else:
                problems.append(f"ARCHITECTURE.md:{i + 1}: error: {name} depends on {want}, not {listed}")
    for name in sorted(n for n in targets if pattern.match(n) and targets[n][0] != "testTarget" and n not in seen):
        problems.append(f"ARCHITECTURE.md:{start + 1}: error: target {name} has no row in the table under \"{heading}\"")


def check_imports(targets, problems):
    """Every target's dependencies, test and helper targets' too, are exactly the package's modules
    it imports. An executable is the exception: a test depends on one to have it built and runs it
    as a child process, so it imports nothing of it."""
    for name, (_, declared, folder) in sorted(targets.items()):
        imported = set()
        for path in swift_files(folder):
            imported.update(m for m in IMPORT.findall(open(path, encoding="utf-8").read()) if m in targets)
        for module in sorted(imported - declared):
            problems.append(f"Package.swift: error: {name} imports {module} without depending on it")
        for module in sorted(m for m in declared - imported if targets[m][0] != "executableTarget"):
            problems.append(f"Package.swift: error: {name} depends on {module} and imports nothing of it")


# --- every name the map gives must exist --------------------------------------------------------

# The documents checked for names, and what each may name beyond paths (ARCHITECTURE.md also
# names types and targets, which must exist).
NAMED_DOCUMENTS = [("ARCHITECTURE.md", True), ("Benchmarks/README.md", False), ("Scripts/README.md", False)]
# Folders never walked for what exists.
SKIPPED = {".build", ".git", ".swiftpm", "__pycache__", ".index-build"}
# The repository's top folders: in a code block, a word starting with one of them is a path.
TOP_FOLDERS = ("Sources/", "Tests/", "Scripts/", "Benchmarks/", "Examples/", "Plugins/", "Stores/", "Fuzz/",
               "Schemas/", ".ci/")
PATH_WORD = re.compile(r"^\.?[\w.+*-]*(?:/[\w.+*-]*)+$")
FILE_NAME = re.compile(r"^[\w+.-]+\.(?:swift|py|sh|md|json|yaml|yml|txt|svg|c|h)$")
SPLIT_FILE = re.compile(r"^[A-Z]\w*(?:\.\w+)?\+\w+$")      # `CacheRule+Freshness`: a file's stem
TYPE_NAME = re.compile(r"^_?[A-Z][A-Za-z0-9]+$")
TARGET_NAME = re.compile(r"^(?:_?CacheGen\w+|CachedClient\w+|cachegen)$")
DECLARED = re.compile(
    r"\b(?:class|struct|enum|protocol|actor|typealias|extension|func|case|var|let|associatedtype)\s+`?(\w+)")
PACKAGE_NAME = re.compile(
    r'\.(?:target|executableTarget|testTarget|plugin|binaryTarget|library|executable|macro)\(\s*name:\s*"(\w+)"')
IMPORTED = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:\w+\s+)?(\w+)", re.M)
SPI = re.compile(r"@_spi\((\w+)\)")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
MEDIA_TYPE = re.compile(r"^(?:application|text|multipart|image|audio|video)/")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def repository_files():
    """Every file and folder of the working tree, as paths relative to the root ('a/b', 'a/')."""
    entries = set()
    for directory, folders, names in os.walk(ROOT):
        folders[:] = [f for f in folders if f not in SKIPPED and not f.startswith(".build")]
        relative = os.path.relpath(directory, ROOT)
        prefix = "" if relative == "." else relative + "/"
        for folder in folders:
            entries.add(prefix + folder + "/")
        for name in names:
            entries.add(prefix + name)
    return entries


def known_names(entries):
    """Targets and products of every Package.swift, every name declared or imported in Swift, and
    every capitalised word of Swift code outside comments (a system type, `EIO`, a header's name)."""
    packages, declared, used = set(), set(), set()
    for entry in entries:
        if entry.endswith("Package.swift"):
            packages.update(PACKAGE_NAME.findall(open(os.path.join(ROOT, entry), encoding="utf-8").read()))
        elif entry.endswith(".swift"):
            text = open(os.path.join(ROOT, entry), encoding="utf-8", errors="replace").read()
            declared.update(DECLARED.findall(text))
            declared.update(IMPORTED.findall(text))
            declared.update(SPI.findall(text))
            used.update(re.findall(r"\b[A-Z]\w+", COMMENT.sub("", text)))
    return packages, declared, used


def spans(lines):
    """(line number, word, in a code block, row target or None) for each word the document names:
    the words of inline code spans, and the words of fenced code blocks."""
    fenced = False
    row_target = None
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            for word in line.split():
                yield number, word, True, None
            continue
        row = re.match(r"^\| `([^`]+)` \|", line)
        row_target = row.group(1) if row else None
        for span in re.findall(r"`([^`]+)`", line):
            for word in span.split():
                yield number, word, False, row_target


def resolve(word, document_folder, target_folder, entries, tails):
    """Whether `word`, a relative path, names something that exists."""
    folder = word.endswith("/")
    path = word.rstrip("/")
    if not path or path in (".", ".."):
        return True
    bases = [""] + ([document_folder + "/"] if document_folder else [])
    if target_folder:
        bases.insert(0, target_folder + "/")
    candidates = [base + path for base in bases]
    if not folder and "." not in path.rsplit("/", 1)[-1]:
        candidates += [base + path + ".swift" for base in bases]   # `Paging/CachedPages`: a type's file
    for candidate in candidates:
        candidate = os.path.normpath(candidate)
        if "*" in candidate:
            if any(fnmatch.fnmatch(entry.rstrip("/"), candidate) for entry in entries):
                return True
        elif candidate + "/" in entries or (not folder and candidate in entries):
            return True
    if target_folder:
        return False   # a row's folder belongs to its target
    # A tail of a path that exists, whole components only: `Conformance/`, `BenchSupport/X.swift`.
    if folder:
        return path + "/" in tails
    return path in tails or path + "/" in tails or path + ".swift" in tails


def tail_index(entries):
    tails = set()
    for entry in entries:
        folder = entry.endswith("/")
        parts = entry.rstrip("/").split("/")
        for i in range(len(parts)):
            tails.add("/".join(parts[i:]) + ("/" if folder else ""))
    return tails


def check_names(targets, problems):
    entries = repository_files()
    tails = tail_index(entries)
    file_names = {entry.rstrip("/").rsplit("/", 1)[-1] for entry in entries}
    packages, declared, used = known_names(entries)
    target_folders = {name: os.path.relpath(folder, ROOT) for name, (_, _, folder) in targets.items()}
    for document, names_types in NAMED_DOCUMENTS:
        path = os.path.join(ROOT, document)
        if not os.path.exists(path):
            problems.append(f"{document}:1: error: the document is missing")
            continue
        document_folder = os.path.dirname(document)
        lines = open(path, encoding="utf-8").read().split("\n")
        for number, raw, fenced, row in spans(lines):
            word = raw.rstrip(",.;:()[]\"'").lstrip("([\"'")
            if word.endswith("…"):
                continue
            where = f"{document}:{number}: error:"
            target_folder = target_folders.get(row) if row else None
            if "/" in word:
                if fenced and not word.startswith(TOP_FOLDERS):
                    continue
                if ("://" in word or word.startswith(("/", "$", "-", "~")) or "<" in word or MEDIA_TYPE.match(word)
                        or not PATH_WORD.match(word)):
                    continue
                if not resolve(word, document_folder, target_folder, entries, tails):
                    within = f" (in {target_folders[row]}/, this row's target)" if target_folder else ""
                    problems.append(f"{where} `{word}` names a path that does not exist{within}")
                continue
            if fenced:
                continue
            if FILE_NAME.match(word):
                if word not in file_names:
                    problems.append(f"{where} `{word}` names a file that does not exist")
                continue
            if not names_types:
                continue
            if SPLIT_FILE.match(word):
                if word + ".swift" not in file_names:
                    problems.append(f"{where} `{word}` names a file, {word}.swift, that does not exist")
                continue
            if TARGET_NAME.match(word):
                if word not in packages and word not in declared:
                    problems.append(f"{where} `{word}` is neither a target nor a product of a Package.swift, "
                                    f"nor a type of the code")
                continue
            if TYPE_NAME.match(word) and not {word} & (declared | packages | used):
                problems.append(f"{where} `{word}` is neither declared nor used in the repository's Swift")
        for number, line in enumerate(lines, start=1):
            check_links(document, number, line, problems)
        # The names in ARCHITECTURE.md's pipelines (the diagrams' target names in parentheses).
        if names_types:
            fenced = False
            for number, line in enumerate(lines, start=1):
                if line.startswith("```"):
                    fenced = not fenced
                elif fenced:
                    for word in re.findall(r"\b(?:CacheGen|CachedClient)\w*", line):
                        if word not in packages and word not in declared:
                            problems.append(f"{document}:{number}: error: `{word}` is neither a target nor a type")
    readme = os.path.join(ROOT, "README.md")
    for number, line in enumerate(open(readme, encoding="utf-8").read().split("\n"), start=1):
        check_links("README.md", number, line, problems)
    check_scripts_listed(entries, problems)


def check_links(document, number, line, problems):
    """A Markdown link to a file of the repository leads to one."""
    for target in LINK.findall(line):
        if re.match(r"^(?:[a-z]+:|#)", target):
            continue
        path = os.path.normpath(os.path.join(ROOT, os.path.dirname(document), target.split("#")[0]))
        if not os.path.exists(path):
            problems.append(f"{document}:{number}: error: the link to {target} leads to nothing")


def check_scripts_listed(entries, problems):
    """Every script under Scripts/ and Benchmarks/ is named in Scripts/README.md."""
    readme = os.path.join(ROOT, "Scripts", "README.md")
    if not os.path.exists(readme):
        return
    text = open(readme, encoding="utf-8").read()
    named = set()
    for span in re.findall(r"`([^`]+)`", text):
        for word in span.split():
            word = word.strip(",.;:()")
            named.add(word)
            named.add(word.rstrip("/"))
    for entry in sorted(entries):
        if entry.endswith("/") or not entry.endswith((".py", ".sh")):
            continue
        if not entry.startswith(("Scripts/", "Benchmarks/")):
            continue
        relative = entry[len("Scripts/"):] if entry.startswith("Scripts/") else entry
        parts = relative.split("/")
        folders = {"/".join(parts[:i]) for i in range(1, len(parts))}
        if relative in named or entry in named or folders & named:
            continue
        problems.append(f"Scripts/README.md:1: error: {entry} is a script the README does not list")


def main():
    write = "--write" in sys.argv[1:]
    lines = open(MAP, encoding="utf-8").read().split("\n")
    problems = []
    targets = package_targets()
    for heading, pattern in TARGET_TABLES:
        check_targets(lines, heading, pattern, targets, problems, write)
    check_imports(targets, problems)
    check_names(targets, problems)
    if write:
        open(MAP, "w", encoding="utf-8").write("\n".join(lines))
    for problem in problems:
        print(problem)
    if problems:
        print("error: the map (ARCHITECTURE.md, Benchmarks/README.md, Scripts/README.md) does not match the "
              "code; fix the code or the map (Scripts/check/architecture.py --write rewrites the tables' "
              "dependencies from Package.swift)")
        return 1
    print("ARCHITECTURE.md matches the code: every target has a row, each row's dependencies are "
          "Package.swift's and the code's, and every path, target and type the map names exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())

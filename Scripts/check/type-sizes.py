#!/usr/bin/env python3
"""No type has more than 40 functions (issue 38): a type that does one job stays small.

Counts the functions, initializers and subscripts of each class, struct, enum and actor under
Sources/, over every file that declares it or extends it (a nested type counts apart from the
type around it; a protocol's requirements and its extensions do not count). Prints the largest
types and fails when one has more than the limit.

Usage: Scripts/check/type-sizes.py [--limit N] [--top N] [SOURCES_DIR]
"""
import argparse
import collections
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|private|fileprivate|final|open|nonisolated|indirect|static)\s+|"
    r"(?:public|package|internal|private|fileprivate)\(set\)\s+)*"
    r"(class|struct|enum|actor|extension|protocol)\s+([\w.]+)")
FUNCTION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|private|fileprivate|final|open|override|static|class|mutating|"
    r"nonmutating|nonisolated|convenience|required|dynamic|optional)\s+)*"
    r"(?:func\s|init\b|init[?!]|subscript\b)")


def string_end(line, start):
    """The index after the one-line string literal at `start` (raw `#"…"#` too), with the
    string literals inside its interpolations."""
    hashes = len(line[start:]) - len(line[start:].lstrip("#"))
    i = start + hashes + 1
    closing = '"' + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < len(line):
        if line.startswith(closing, i):
            return i + len(closing)
        if line.startswith(escape + "(", i):
            i += len(escape) + 1
            depth = 1
            while i < len(line) and depth:
                if line[i] == '"' or (line[i] == "#" and re.match(r'#+"', line[i:])):
                    i = string_end(line, i)
                    continue
                depth += {"(": 1, ")": -1}.get(line[i], 0)
                i += 1
        elif line.startswith(escape, i):
            i += len(escape) + 1
        else:
            i += 1
    return i


def code_lines(text):
    """Yields each line with comments and string literals blanked, so braces in them do not count."""
    in_block = 0
    in_multiline = False
    for line in text.split("\n"):
        out = []
        i = 0
        while i < len(line):
            if in_block:
                if line.startswith("*/", i):
                    in_block -= 1
                    i += 2
                elif line.startswith("/*", i):
                    in_block += 1
                    i += 2
                else:
                    i += 1
            elif in_multiline:
                if line.startswith('"""', i):
                    in_multiline = False
                    out.append('""')
                    i += 3
                else:
                    i += 1
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                in_block = 1
                i += 2
            elif line.startswith('"""', i):
                in_multiline = True
                i += 3
            elif line[i] == '"' or (line[i] == "#" and re.match(r'#+"', line[i:])):
                i = string_end(line, i)
                out.append('""')
            else:
                out.append(line[i])
                i += 1
        yield "".join(out)


def count(sources):
    functions = collections.Counter()
    files = collections.defaultdict(set)
    for folder, _, names in os.walk(sources):
        for name in names:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            scopes = []  # (type name or None for a protocol, depth of its body)
            depth = 0
            pending = None
            for line in code_lines(text):
                match = DECLARATION.match(line)
                if match:
                    kind, type_name = match.groups()
                    pending = None if kind == "protocol" else type_name.split(".")[-1]
                    pending = (pending, depth)
                elif FUNCTION.match(line) and scopes and scopes[-1][1] == depth and scopes[-1][0]:
                    functions[scopes[-1][0]] += 1
                    files[scopes[-1][0]].add(path)
                for character in line:
                    if character == "{":
                        depth += 1
                        if pending is not None and pending[1] == depth - 1:
                            scopes.append((pending[0], depth))
                            pending = None
                    elif character == "}":
                        if scopes and scopes[-1][1] == depth:
                            scopes.pop()
                        depth -= 1
    return functions, files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("sources", nargs="?", default="Sources")
    arguments = parser.parse_args()
    functions, files = count(arguments.sources)
    for type_name, number in functions.most_common(arguments.top):
        print(f"{number:4} functions  {type_name} ({len(files[type_name])} files)")
    over = [name for name, number in functions.items() if number > arguments.limit]
    if over:
        print(f"error: more than {arguments.limit} functions: {', '.join(sorted(over))}; "
              "split the type by job (ARCHITECTURE.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

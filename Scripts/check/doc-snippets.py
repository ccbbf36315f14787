#!/usr/bin/env python3
"""Every Swift block of an article is code that compiles.

An article in the DocC catalog names, in backticks, the compiled files its code lives in
(`Tests/DocumentationTests/GettingStarted.swift`). Each ```swift block must appear in one of
them line for line (leading and trailing spaces and blank lines ignored), so an article
cannot drift from code the build checks. A block starting `// Package.swift` is a manifest
fragment and is not checked. An article with Swift blocks that names no file is an error,
unless it is a placeholder another helper will replace (none of those have Swift blocks).

README.md is checked the same way, block by block, for the Swift blocks right after a line
`<!-- compiled in Tests/SomeTests/File.swift -->` (its other blocks are sketches).
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOG = os.path.join(ROOT, "Sources/CachedClientRuntime/CachedClientRuntime.docc")


def normalized(lines):
    return [line.strip() for line in lines if line.strip()]


def contains(haystack, needle):
    return any(haystack[i:i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1))


def main():
    problems = []
    checked = 0
    for article in sorted(glob.glob(os.path.join(CATALOG, "*.md"))):
        text = open(article, encoding="utf-8").read()
        name = os.path.basename(article)
        blocks = re.findall(r"^```swift\n(.*?)^```", text, flags=re.S | re.M)
        blocks = [b for b in blocks if not b.lstrip().startswith("// Package.swift")]
        if not blocks:
            continue
        files = sorted(set(re.findall(r"`((?:Tests|Examples|Sources|Stores)/[^`\s]+\.swift)`", text)))
        if not files:
            problems.append(
                f"{name}: has Swift code but names no compiled file holding it; add a sentence such as "
                "'The code on this page is compiled in `Tests/SomeTests/File.swift`.' naming each file")
            continue
        sources = []
        for path in files:
            full = os.path.join(ROOT, path)
            if not os.path.exists(full):
                problems.append(f"{name}: names {path}, which does not exist")
                continue
            sources.append(normalized(open(full, encoding="utf-8").read().splitlines()))
        for block in blocks:
            needle = normalized(block.splitlines())
            checked += 1
            if not any(contains(source, needle) for source in sources):
                first = needle[0] if needle else ""
                problems.append(
                    f"{name}: a Swift block starting '{first}' is not, line for line, in {', '.join(files)}; "
                    "copy it from there (blank lines and indentation may differ)")
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    for path, block in re.findall(r"^<!-- compiled in (\S+\.swift) -->\n```swift\n(.*?)^```", readme, flags=re.S | re.M):
        full = os.path.join(ROOT, path)
        checked += 1
        if not os.path.exists(full):
            problems.append(f"README.md: names {path}, which does not exist")
            continue
        needle = normalized(block.splitlines())
        if not contains(normalized(open(full, encoding="utf-8").read().splitlines()), needle):
            first = needle[0] if needle else ""
            problems.append(f"README.md: a Swift block starting '{first}' is not, line for line, in {path}")
    for problem in problems:
        print(f"error: {problem}")
    print(f"{checked} Swift blocks checked against compiled files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

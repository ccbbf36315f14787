#!/usr/bin/env python3
"""Prints, per OpenAPI document of the corpus, what cachegen makes of it: operations present and
generated, properties present and left out, warnings by kind, errors, generation CPU time and peak
memory, and whether the generated Swift type-checks with no warning in Swift 5 and 6 language
modes. With --sog, the same document through swift-openapi-generator beside it (generation time
and memory, type-check time and memory of its output). Printed figures, never a test.

    Scripts/bench/openapi-corpus-report.py [--sog PATH] [--no-compile] [DOCUMENT...]

Default documents: Tests/Fixtures/ThirdParty/openapi-corpus/ (see its README) and
Tests/Fixtures/ThirdParty/openapi/*.yaml. Run after `swift build` (it uses .build/debug/cachegen
and the runtime's modules). Needs PyYAML (`python3 -m pip install pyyaml`).

Counting: operations present are the methods of every path item (a path item or operation that
is a `$ref`, into the document or another file, counts as one), webhooks and callbacks aside;
operations generated are the generated `Endpoint` constants. Properties present are the keys of
every `properties` object in the document and the files its `$ref`s reach (examples aside);
properties left out are the warnings that say a property is left out: a warning is a loss by the
generator's contract, so the two columns are honest together.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Tests", "Fixtures", "ThirdParty", "openapi-corpus")
SMALL = os.path.join(ROOT, "Tests", "Fixtures", "ThirdParty", "openapi")
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def default_documents():
    documents = [
        os.path.join(CORPUS, "openai", "openapi.yaml"),
        os.path.join(CORPUS, "twilio", "twilio_api_v2010.yaml"),
        os.path.join(CORPUS, "box", "openapi.json"),
        os.path.join(CORPUS, "digitalocean", "specification", "DigitalOcean-public.v2.yaml"),
        os.path.join(CORPUS, "kubevirt", "swagger.json"),
        # OpenAPI 3.2, written for cachegen's tests (no real one yet): itemSchema streams,
        # query, additionalOperations, defaultMapping, tag kinds.
        os.path.join(ROOT, "Tests", "CacheGenCoreTests", "OpenAPI", "Documents", "feeds-3.2.openapi.yaml"),
    ]
    documents += sorted(os.path.join(SMALL, n) for n in os.listdir(SMALL) if n.endswith(".yaml"))
    return documents


def load(path, cache):
    if path not in cache:
        with open(path, "rb") as handle:
            text = handle.read()
        try:
            cache[path] = json.loads(text) if path.endswith(".json") else yaml.load(text, Loader=yaml.CSafeLoader)
        except Exception as error:  # A document PyYAML cannot read is counted as empty.
            print(f"  note: {os.path.relpath(path, ROOT)}: {str(error).splitlines()[0]}", file=sys.stderr)
            cache[path] = None
    return cache[path]


def referenced_files(root_path):
    """The document and every file its `$ref`s reach, transitively (each loaded once)."""
    cache = {}
    pending = [os.path.abspath(root_path)]
    seen = set()
    while pending:
        path = pending.pop()
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        stack = [load(path, cache)]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and not ref.startswith("#") and "://" not in ref:
                    pending.append(os.path.normpath(os.path.join(os.path.dirname(path), ref.split("#")[0])))
                stack.extend(v for k, v in node.items() if k not in ("example", "examples"))
            elif isinstance(node, list):
                stack.extend(node)
    return {path: cache[path] for path in seen}


def count_properties(files):
    total = 0
    for document in files.values():
        stack = [document]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                properties = node.get("properties")
                if isinstance(properties, dict) and ("type" not in node or node.get("type") == "object"
                                                     or isinstance(node.get("type"), list)):
                    total += len(properties)
                stack.extend(v for k, v in node.items() if k not in ("example", "examples"))
            elif isinstance(node, list):
                stack.extend(node)
    return total


def count_operations(document):
    if not isinstance(document, dict):
        return 0
    count = 0
    for item in (document.get("paths") or {}).values():
        if isinstance(item, dict):
            count += sum(1 for key in item if key in METHODS)
    return count


def kind_of(message):
    """A warning's kind: its text with names and numbers taken out."""
    message = re.sub(r'"[^"]*"', '"…"', message)
    message = re.sub(r"\([^)]*=[^)]*\)", "(…)", message)
    return re.sub(r"\b\d+\b", "N", message)


def timed(command, **kwargs):
    """Runs command under /usr/bin/time; returns (exit status, CPU seconds (user + system, the
    figure a busy machine does not inflate), peak KB, output)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as times:
        result = subprocess.run(["/usr/bin/time", "-o", times.name, "-f", "%M %U %S"] + command,
                                capture_output=True, text=True, **kwargs)
        lines = [l.split() for l in open(times.name).read().splitlines() if re.fullmatch(r"\d+ [\d.]+ [\d.]+", l)]
        peak, user, system = (int(lines[-1][0]), float(lines[-1][1]), float(lines[-1][2])) if lines else (0, 0, 0)
    return result.returncode, user + system, peak, result.stdout + result.stderr


def typecheck(files, include_paths, mode):
    command = ["swiftc", "-typecheck", "-swift-version", str(mode), "-strict-concurrency=complete",
               "-warnings-as-errors"]
    for path in include_paths:
        command += ["-I", path]
    return timed(command + files)


def cachegen_paths():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    return os.path.join(bin_path, "cachegen"), modules if os.path.isdir(modules) else bin_path


def report(document, cachegen, modules, compile_code, sog, sog_modules, work):
    name = os.path.relpath(document, ROOT)
    files = referenced_files(document)
    root = files.get(os.path.abspath(document))
    present = count_operations(root)
    properties = count_properties(files)
    out = os.path.join(work, re.sub(r"[^A-Za-z0-9]+", "-", name))
    status, seconds, peak, output = timed([cachegen, "generate", document, "--output", out + "/cachegen"])
    warnings = [l.split(" warning: ", 1)[1] for l in output.splitlines() if " warning: " in l]
    errors = [l for l in output.splitlines() if " error: " in l or l.startswith("error: ")]
    sources = sorted(os.path.join(out, "cachegen", f) for f in os.listdir(out + "/cachegen")) \
        if os.path.isdir(out + "/cachegen") else []
    generated = sum(open(f).read().count(": Endpoint {") for f in sources)
    left_out_properties = sum(1 for w in warnings if w.startswith("property ") and " left out" in w)
    print(f"## {name}")
    print(f"operations: {generated} generated of {present} present")
    print(f"properties: {properties} present, {left_out_properties} left out (warnings)")
    print(f"cachegen generate: exit {status}, {seconds:.2f} s CPU, {peak / 1024:.0f} MB peak, "
          f"{len(sources)} files, {len(warnings)} warnings, {len(errors)} errors")
    for line in errors[:5]:
        print(f"  {line}")
    for kind, count in Counter(kind_of(w) for w in warnings).most_common():
        print(f"  {count:5d} × {kind}")
    if compile_code and sources:
        for mode in (5, 6):
            status, seconds, peak, output = typecheck(sources, [modules], mode)
            verdict = "no warnings" if status == 0 else f"FAILED ({output.count(' error: ')} errors)"
            print(f"type-check, Swift {mode} mode: {verdict}, {seconds:.1f} s CPU, {peak / 1024:.0f} MB peak")
    if sog:
        config = os.path.join(work, "openapi-generator-config.yaml")
        with open(config, "w") as handle:
            handle.write("generate:\n  - types\n  - client\naccessModifier: public\n")
        os.makedirs(out + "/sog", exist_ok=True)
        status, seconds, peak, output = timed(
            [sog, "generate", "--config", config, "--output-directory", out + "/sog", document])
        print(f"swift-openapi-generator generate: exit {status}, {seconds:.2f} s CPU, {peak / 1024:.0f} MB peak")
        sog_sources = sorted(os.path.join(out, "sog", f) for f in os.listdir(out + "/sog") if f.endswith(".swift"))
        if compile_code and status == 0 and sog_modules:
            status, seconds, peak, output = timed(
                ["timeout", "900", "swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Client"]
                + [arg for path in sog_modules for arg in ("-I", path)] + sog_sources)
            verdict = "ok" if status == 0 else f"exit {status}"
            print(f"swift-openapi-generator type-check, Swift 6 mode: {verdict}, {seconds:.1f} s CPU, "
                  f"{peak / 1024:.0f} MB peak")
    print()


def sog_runtime_modules(work):
    """Builds swift-openapi-runtime and swift-openapi-urlsession once (debug) for type-checking
    swift-openapi-generator's output; returns their module folders."""
    package = os.path.join(work, "sog-runtime")
    os.makedirs(os.path.join(package, "Sources", "Empty"), exist_ok=True)
    with open(os.path.join(package, "Sources", "Empty", "Empty.swift"), "w") as handle:
        handle.write("import OpenAPIRuntime\nimport OpenAPIURLSession\n")
    with open(os.path.join(package, "Package.swift"), "w") as handle:
        handle.write('''// swift-tools-version: 6.0
import PackageDescription
let package = Package(name: "SOGRuntime", platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
    ],
    targets: [.target(name: "Empty", dependencies: [
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
    ])])
''')
    subprocess.run(["swift", "build", "--package-path", package], check=True, capture_output=True)
    bin_path = subprocess.run(["swift", "build", "--package-path", package, "--show-bin-path"],
                              capture_output=True, text=True, check=True).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    return [modules if os.path.isdir(modules) else bin_path]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("documents", nargs="*")
    parser.add_argument("--sog", help="swift-openapi-generator's CLI, to run beside cachegen")
    parser.add_argument("--no-compile", action="store_true", help="skip type-checking the output")
    arguments = parser.parse_args()
    cachegen, modules = cachegen_paths()
    work = tempfile.mkdtemp(prefix="cachegen-corpus-")
    sog_modules = sog_runtime_modules(work) if arguments.sog and not arguments.no_compile else None
    print(f"# cachegen on the OpenAPI corpus ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.1f})\n")
    try:
        for document in arguments.documents or default_documents():
            report(os.path.abspath(document), cachegen, modules, not arguments.no_compile, arguments.sog,
                   sog_modules, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

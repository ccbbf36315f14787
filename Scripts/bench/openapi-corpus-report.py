#!/usr/bin/env python3
"""Prints, per API document of the corpus (OpenAPI 3.0, 3.1 and 3.2, Swagger 2.0), what cachegen
makes of it: the version, operations generated of those present, properties present and left
out, warnings by kind, errors, generation CPU time and peak memory, and whether the generated
Swift type-checks in Swift 5 and 6 language modes (errors, warnings, CPU seconds, peak memory).
With --sog, whether swift-openapi-generator 1.14.3 accepts the same document (it generates
`types` and `client` and exits 0), with its generation time; it refuses Swagger 2.0. At the
end, a table of every document. Printed figures, never a test.

    Scripts/bench/openapi-corpus-report.py [--sog PATH|build] [--sog-typecheck] [--no-compile] [DOCUMENT...]

--sog build builds swift-openapi-generator 1.14.3's CLI (release, once) from the package mirror
where `Benchmarks/build-cost.sh` builds it, $WORK/generator-src (WORK defaults to
/tmp/cachegen-build-cost-sbs), and reuses it there. --sog-typecheck also type-checks its output
against swift-openapi-runtime 1.13.4 and swift-openapi-urlsession 1.4.0 (slow: minutes and
gigabytes per large document).

Default documents: Tests/Fixtures/ThirdParty/openapi-corpus/ (see its README) and
Tests/Fixtures/ThirdParty/openapi/*.yaml. Run after `swift build` (it uses .build/debug/cachegen
and the runtime's modules). Needs PyYAML (`python3 -m pip install pyyaml`).

Counting: operations present are the methods of every path item (`get` … `trace`; 3.2's
`query` and each entry of `additionalOperations` too; a path item or operation that is a `$ref`,
into the document or another file, is followed), webhooks and callbacks aside; Swagger 2.0's
`paths` have the same shape. Operations generated are the generated `Endpoint` constants, less
the `…Events` twin of an operation that also streams. Properties present are the keys of every
`properties` object in the document and the files its `$ref`s reach (examples aside); properties
left out are the warnings that say a property is left out: a warning is a loss by the
generator's contract, so the two columns are honest together. "left out" counts every warning
that says something is left out (each is listed by kind above the table).
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
SOG_WORK = os.environ.get("WORK", "/tmp/cachegen-build-cost-sbs")


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


def version(document):
    """`2.0`, `3.0.3`, `3.2.0`…: the document's `swagger` or `openapi` field."""
    if not isinstance(document, dict):
        return "?"
    return str(document.get("swagger") or document.get("openapi") or "?")


def resolve(node, path, files):
    """`node`, or what its `$ref` names (in the same file or another one the report loaded),
    with that file's path; one hop per call, at most 16."""
    for _ in range(16):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            return node, path
        part, _, pointer = node["$ref"].partition("#")
        if "://" in part:
            return None, path
        if part:
            path = os.path.normpath(os.path.join(os.path.dirname(path), part))
        node = files.get(path)
        for segment in [s for s in pointer.split("/") if s]:
            segment = segment.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict):
                node = node.get(segment)
            elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
                node = node[int(segment)]
            else:
                node = None
    return node, path


def count_operations(document, path, files):
    """Operations under `paths`: each method of a path item (3.2 adds `query` and the entries of
    `additionalOperations`), path items that are `$ref`s followed."""
    if not isinstance(document, dict):
        return 0
    methods = set(METHODS)
    is32 = version(document).startswith("3.2")
    if is32:
        methods.add("query")
    count = 0
    for item in (document.get("paths") or {}).values():
        item, _ = resolve(item, path, files)
        if isinstance(item, dict):
            count += sum(1 for key in item if key in methods)
            extra = item.get("additionalOperations") if is32 else None
            if isinstance(extra, dict):
                count += len(extra)
    return count


def generated_operations(sources):
    """The generated `Endpoint` constants, less the `…Events` twin of an operation that streams
    (its endpoint's name is the operation's with `Events` after it)."""
    names = set()
    for source in sources:
        names.update(re.findall(r'static (?:var|let) \w+: Endpoint \{\s*Endpoint\(\s*name: "([^"]+)"', open(source).read()))
    twins = {n for n in names if n.endswith("Events") and n[:-len("Events")] in names}
    return len(names - twins)


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
    """Type-checks files with complete concurrency checking; returns (exit status, errors,
    warnings, CPU seconds, peak KB)."""
    command = ["swiftc", "-typecheck", "-swift-version", str(mode), "-strict-concurrency=complete"]
    for path in include_paths:
        command += ["-I", path]
    status, seconds, peak, output = timed(command + files)
    return status, output.count(" error: "), output.count(" warning: "), seconds, peak


def cachegen_paths():
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    return os.path.join(bin_path, "cachegen"), modules if os.path.isdir(modules) else bin_path


def report(document, cachegen, modules, compile_code, sog, sog_modules, work):
    """Prints one document's figures; returns its row of the table at the end."""
    name = os.path.relpath(document, ROOT) if document.startswith(ROOT + os.sep) else document
    files = referenced_files(document)
    root = files.get(os.path.abspath(document))
    present = count_operations(root, os.path.abspath(document), files)
    properties = count_properties(files)
    out = os.path.join(work, re.sub(r"[^A-Za-z0-9]+", "-", name))
    status, seconds, peak, output = timed([cachegen, "generate", document, "--output", out + "/cachegen"])
    warnings = [l.split(" warning: ", 1)[1] for l in output.splitlines() if " warning: " in l]
    errors = [l for l in output.splitlines() if " error: " in l or l.startswith("error: ")]
    sources = sorted(os.path.join(out, "cachegen", f) for f in os.listdir(out + "/cachegen")) \
        if os.path.isdir(out + "/cachegen") else []
    generated = generated_operations(sources)
    left_out_properties = sum(1 for w in warnings if w.startswith("property ") and " left out" in w)
    left_out = sum(1 for w in warnings if " left out" in w)
    row = {"document": name, "version": version(root), "generated": generated, "present": present,
           "properties": properties, "left out properties": left_out_properties, "warnings": len(warnings),
           "left out": left_out, "errors": len(errors), "seconds": seconds, "peak": peak}
    print(f"## {name}")
    print(f"version: {row['version']}")
    print(f"operations: {generated} generated of {present} present")
    print(f"properties: {properties} present, {left_out_properties} left out (warnings)")
    print(f"cachegen generate: exit {status}, {seconds:.2f} s CPU, {peak / 1024:.0f} MB peak, "
          f"{len(sources)} files, {len(warnings)} warnings ({left_out} say something is left out), {len(errors)} errors")
    for line in errors[:5]:
        print(f"  {line}")
    for kind, count in Counter(kind_of(w) for w in warnings).most_common():
        print(f"  {count:5d} × {kind}")
    if compile_code and sources:
        for mode in (5, 6):
            status, error_count, warning_count, seconds, peak = typecheck(sources, [modules], mode)
            print(f"type-check, Swift {mode} mode: exit {status}, {error_count} errors, {warning_count} warnings, "
                  f"{seconds:.1f} s CPU, {peak / 1024:.0f} MB peak")
            row[f"swift {mode}"] = (error_count, warning_count, seconds, peak)
    if sog:
        config = os.path.join(work, "openapi-generator-config.yaml")
        with open(config, "w") as handle:
            handle.write("generate:\n  - types\n  - client\naccessModifier: public\n")
        os.makedirs(out + "/sog", exist_ok=True)
        status, seconds, peak, output = timed(
            [sog, "generate", "--config", config, "--output-directory", out + "/sog", document])
        said = [l.rsplit("error: ", 1)[1].strip() for l in output.splitlines() if "error: " in l]
        reason = (said[-1] if said else "") if status else ""
        print(f"swift-openapi-generator generate: exit {status}, {seconds:.2f} s CPU, {peak / 1024:.0f} MB peak"
              + (f": {reason[:160]}" if reason else ""))
        row["sog"] = (status, seconds)
        sog_sources = sorted(os.path.join(out, "sog", f) for f in os.listdir(out + "/sog") if f.endswith(".swift"))
        if compile_code and status == 0 and sog_modules:
            status, seconds, peak, output = timed(
                ["timeout", "900", "swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Client"]
                + [arg for path in sog_modules for arg in ("-I", path)] + sog_sources)
            verdict = "ok" if status == 0 else f"exit {status}"
            print(f"swift-openapi-generator type-check, Swift 6 mode: {verdict}, {seconds:.1f} s CPU, "
                  f"{peak / 1024:.0f} MB peak")
    print()
    shutil.rmtree(out, ignore_errors=True)
    return row


def table(rows):
    """The rows as a Markdown table."""
    def typechecked(row, mode):
        figures = row.get(f"swift {mode}")
        if figures is None:
            return "not run"
        errors, warnings, seconds, peak = figures
        return f"{errors} / {warnings}, {seconds:.1f} s, {peak / 1024:.0f} MB"
    header = ["document", "version", "operations generated / present", "properties left out / present", "warnings",
              "left out", "errors", "generate (CPU s, peak MB)", "Swift 5: errors / warnings, CPU s, peak",
              "Swift 6: errors / warnings, CPU s, peak", "swift-openapi-generator accepts"]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for row in rows:
        sog = row.get("sog")
        accepts = "not run" if sog is None else ("yes" if sog[0] == 0 else f"no (exit {sog[0]})") \
            + (f", {sog[1]:.1f} s" if sog else "")
        lines.append("| " + " | ".join([
            row["document"].split("ThirdParty/")[-1], row["version"], f"{row['generated']} / {row['present']}",
            f"{row['left out properties']} / {row['properties']}", str(row["warnings"]), str(row["left out"]),
            str(row["errors"]), f"{row['seconds']:.2f}, {row['peak'] / 1024:.0f}", typechecked(row, 5),
            typechecked(row, 6), accepts]) + " |")
    return "\n".join(lines)


def build_sog():
    """swift-openapi-generator 1.14.3's CLI, built (release) once where Benchmarks/build-cost.sh
    builds it, from the package mirror."""
    source = os.path.join(SOG_WORK, "generator-src")
    binary = os.path.join(source, ".build", "release", "swift-openapi-generator")
    if not os.access(binary, os.X_OK):
        os.makedirs(SOG_WORK, exist_ok=True)
        if not os.path.isdir(source):
            subprocess.run(["git", "clone", "-q", "-b", "1.14.3", "https://github.com/apple/swift-openapi-generator",
                            source], check=True)
        subprocess.run(["swift", "build", "-c", "release", "--package-path", source, "--product",
                        "swift-openapi-generator"], check=True, stdout=sys.stderr)
    return binary


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
    parser.add_argument("--sog", help="swift-openapi-generator's CLI, to run beside cachegen; `build` builds it")
    parser.add_argument("--sog-typecheck", action="store_true", help="type-check swift-openapi-generator's output too")
    parser.add_argument("--no-compile", action="store_true", help="skip type-checking the output")
    arguments = parser.parse_args()
    cachegen, modules = cachegen_paths()
    sog = build_sog() if arguments.sog == "build" else arguments.sog
    work = tempfile.mkdtemp(prefix="cachegen-corpus-")
    sog_modules = sog_runtime_modules(work) if sog and arguments.sog_typecheck and not arguments.no_compile else None
    print(f"# cachegen on the OpenAPI corpus ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.1f})\n")
    rows = []
    try:
        for document in arguments.documents or default_documents():
            rows.append(report(os.path.abspath(document), cachegen, modules, not arguments.no_compile, sog,
                               sog_modules, work))
        print(table(rows))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

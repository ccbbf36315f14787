#!/usr/bin/env python3
"""Writes, for every YAML document in Tests/Fixtures/ThirdParty/openapi/, the value PyYAML reads as JSON to
Tests/CacheGenCoreTests/YAML/OpenAPIFixtures/<name>.json, the reference the YAML reader's
tests compare against. Run once when the documents change; the output is checked in.

PyYAML implements YAML 1.1; its loader here resolves plain scalars by YAML 1.2's core
schema instead (what the reader implements): `yes`/`on` and dates stay strings, `0o17`
and `1e3` are numbers. Anchors, aliases and merge keys are PyYAML's own.

Usage: python3 Scripts/make-yaml-fixtures.py
"""
import glob
import json
import os
import re

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = os.path.join(ROOT, "Tests", "Fixtures", "ThirdParty", "openapi")
FIXTURES = os.path.join(ROOT, "Tests", "CacheGenCoreTests", "YAML", "OpenAPIFixtures")


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema resolution of plain scalars."""


CoreLoader.yaml_implicit_resolvers = {}
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


CoreLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreLoader.add_constructor("tag:yaml.org,2002:float", lambda loader, node: float(loader.construct_scalar(node)))


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(DOCUMENTS, "*.yaml"))):
        with open(path, encoding="utf-8") as handle:
            value = yaml.load(handle, Loader=CoreLoader)
        name = os.path.splitext(os.path.basename(path))[0]
        with open(os.path.join(FIXTURES, name + ".json"), "w", encoding="utf-8") as handle:
            json.dump(value, handle, indent=1, ensure_ascii=False, allow_nan=False)
            handle.write("\n")
        print(name)


main()

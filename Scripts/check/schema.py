#!/usr/bin/env python3
"""Validates every example spec and OpenAPI overlay against Schemas/cachegen.schema.json, so the schema
that editors use accepts what cachegen accepts. Needs the `jsonschema` package."""
import glob
import json
import os
import sys

import jsonschema

root = os.path.join(os.path.dirname(__file__), "..", "..")
schema = json.load(open(os.path.join(root, "Schemas/cachegen.schema.json")))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
specs = sorted(glob.glob(os.path.join(root, "Examples/specs/*.cachegen.json"))
               + glob.glob(os.path.join(root, "Tests/CacheGenCoreTests/Specs/*.cachegen.json"))
               + glob.glob(os.path.join(root, "Tests/CacheGenCoreTests/OpenAPI/Documents/*.cachegen.json")))
failed = False
for path in specs:
    errors = list(validator.iter_errors(json.load(open(path))))
    for error in errors:
        failed = True
        print(f"{os.path.relpath(path, root)}: {'/'.join(map(str, error.path))}: {error.message}")
# Endpoints the schema must reject, as cachegen does.
rejected = [
    {"path": "/a", "response": {"format": "bytes"}},
    {"path": "/a", "response": {"type": "string", "format": "data"}},
    {"path": "/a", "response": {"format": "events"}},
    {"path": "/a", "response": {"type": "Tick"}},
    {"path": "/a", "response": {"type": "Tick", "format": "events", "cache": True}},
    {"path": "/a", "response": {"type": "Tick", "format": "json", "channel": True}},
    {"path": "/a", "response": {"format": "text", "channel": True}},
    {"path": "/a", "response": {"type": "Tick", "format": "events", "channel": "always"}},
]
for endpoint in rejected:
    spec = {"version": 1, "repositories": {"R": {"endpoints": {"e": endpoint}}}}
    if validator.is_valid(spec):
        failed = True
        print(f"accepted but cachegen rejects it: {json.dumps(endpoint)}")

# Request bodies: each the schema must accept (True) or reject (False).
def spec_with_body(body):
    return {"version": 1, "repositories": {"Files": {"endpoints": {"upload": {"method": "POST", "path": "/files", "body": body}}}}}
body_cases = [
    ("NewFile", True),
    ({"type": "NewFile", "encoding": "multipart", "fields": {"meta": {"contentType": "application/json"}}}, True),
    ({"type": "Charge", "encoding": "form", "fields": {"tags": {"style": "pipeDelimited", "explode": False}}}, True),
    ({"type": "data", "encoding": "binary", "contentType": "image/png"}, True),
    ({"type": "string", "encoding": "text"}, True),
    ({"encoding": "form"}, False),
    ({"type": "Charge", "encoding": "xml"}, False),
    ({"type": "Charge", "encoding": "form", "fields": {"tags": {"style": "matrix"}}}, False),
    ({"type": "Charge", "encodings": "form"}, False),
]
for body, valid in body_cases:
    if validator.is_valid(spec_with_body(body)) != valid:
        failed = True
        print(f"body case {json.dumps(body)}: expected {'valid' if valid else 'invalid'}")
# Model names: a built-in type word is no model's name (cachegen says so at its line); File is.
model_cases = [("File", True), ("UploadedFile", True), ("file", False), ("json", False), ("data", False)]
for name, valid in model_cases:
    spec = {"version": 1, "models": {name: {"properties": {"name": "string"}}}, "repositories": {}}
    if validator.is_valid(spec) != valid:
        failed = True
        print(f"model name {name!r}: expected {'valid' if valid else 'invalid'}")
# An overlay's operation rule: "channel" is a Boolean.
rule_cases = [({"channel": True}, True), ({"channel": False, "cache": False}, True), ({"channel": "always"}, False)]
for rule, valid in rule_cases:
    overlay = {"openapi": "api.yaml", "operations": {"events": rule}}
    if validator.is_valid(overlay) != valid:
        failed = True
        print(f"operation rule {json.dumps(rule)}: expected {'valid' if valid else 'invalid'}")
print(f"schema: {len(specs)} specs, {len(rejected)} wrong endpoints, {len(body_cases)} body cases, {len(rule_cases)} operation rules and {len(model_cases)} model names checked" + (", errors above" if failed else ", all valid"))
sys.exit(1 if failed else 0)

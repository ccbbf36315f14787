#!/usr/bin/env python3
"""Writes a synthetic cachegen spec of 1,000 endpoints and 330 models to PATH.

Used by the generator benchmarks (Benchmarks/, Scripts/bench-generator-process.sh).
The output is deterministic: the same bytes on every run and machine.

The mix is meant to look like a large real API: 50 repositories of 20 endpoints each
(lists with paging and filters, details by typed and string path parameters, nested
resources, searches, declared headers, POST search with the body in the key, and
uncached writes), 300 per-resource models (a record with nested models, enums, arrays,
dictionaries, optional, date, url and uuid fields, JSON wire names; a summary; a line
item; an input body; two enums) and 30 shared models.

With --shape, it writes the build-cost shapes instead (issue 19): N endpoints in
repositories of 20, N/3 models, each model with an optional `owner` pointing at the next
model, either ending at the last (chain: N/3 models deep) or pointing back to the first
(cycle). Each model has a get (cached), a list (cached) and a delete endpoint.

With --openapi, the same shape is written as an OpenAPI 3.0 document in JSON instead (for
swift-openapi-generator and for cachegen's OpenAPI input, side by side in the build-cost
benchmark): one tag per repository (`R0` …), operationIds as the endpoint names, the
models as component schemas (`owner` optional, the rest but `updatedAt` required), GETs
answered with 200 and a JSON body, DELETEs with 204. With --add-property and
--add-endpoint, the edits the rebuild figures time: a property `note` on the middle model,
one more cached GET at the end of the last repository.

Usage: python3 Scripts/make-large-spec.py PATH
       python3 Scripts/make-large-spec.py PATH --endpoints 120 --shape chain|cycle [--openapi]
                                               [--add-property] [--add-endpoint]
"""
import argparse
import json
import sys

RESOURCES = [
    "Account", "Order", "Product", "Customer", "Invoice", "Payment", "Shipment", "Warehouse",
    "Supplier", "Category", "Review", "Coupon", "Cart", "Wishlist", "Subscription", "Plan",
    "Ticket", "Agent", "Article", "Comment", "Playlist", "Track", "Album", "Artist",
    "Event", "Venue", "Booking", "Room", "Hotel", "Flight", "Airport", "Vehicle",
    "Driver", "Route", "Station", "Device", "Sensor", "Reading", "Alert", "Report",
    "Project", "Chore", "Milestone", "Team", "Member", "Document", "Folder", "Message",
    "Channel", "Workspace",
]
assert len(RESOURCES) == 50

KIND_VALUES = [
    ["standard", "premium", "trial", "legacy"],
    ["physical", "digital", "service", "bundle", "gift-card"],
    ["draft", "in_review", "published", "archived"],
    ["small", "medium", "large", "x-large", "custom"],
    ["internal", "external", "partner"],
]
STATUS_VALUES = [
    ["active", "inactive", "suspended", "closed"],
    ["pending", "processing", "shipped", "delivered", "returned", "cancelled"],
    ["open", "in-progress", "resolved", "wont_fix"],
]

SCALARS = ["string", "int", "double", "bool", "date", "url", "uuid"]


def snake(name):
    out = []
    for index, char in enumerate(name):
        if char.isupper() and index > 0:
            out.append("_")
        out.append(char.lower())
    return "".join(out)


def shared_models():
    models = {
        "Money": {"description": "An amount in one currency.",
                  "properties": {"amount": "double", "currency": "CurrencyCode"}},
        "CurrencyCode": {"enum": ["EUR", "USD", "GBP", "JPY", "CHF", "SEK"]},
        "Address": {"properties": {"line1": "string", "line2": "string?", "city": "string",
                                   "postalCode": "string", "country": "CountryCode",
                                   "location": "GeoPoint?"}},
        "CountryCode": {"enum": ["DE", "FR", "GB", "US", "JP", "SE", "CH", "NL"]},
        "GeoPoint": {"properties": {"latitude": "double", "longitude": "double", "accuracy": "double?"}},
        "ImageRef": {"properties": {"url": "url", "width": "int", "height": "int",
                                    "altText": {"type": "string?", "description": "For screen readers."}}},
        "PageInfo": {"description": "Where a page sits in a list.",
                     "properties": {"page": "int", "perPage": "int", "total": "int", "nextCursor": "string?"}},
        "AuditInfo": {"properties": {"createdAt": "date", "createdBy": "string", "updatedAt": "date?",
                                     "updatedBy": "string?", "version": "int"}},
        "Link": {"properties": {"rel": "string", "href": "url", "title": "string?"}},
        "ContactInfo": {"properties": {"email": "string?", "phone": "string?", "website": "url?",
                                       "address": "Address?"}},
        "Visibility": {"enum": ["public", "private", "unlisted", "team-only"]},
        "Rating": {"properties": {"average": "double", "count": "int", "histogram": "[string: int]"}},
        "Period": {"properties": {"start": "date", "end": "date?"}},
        "Attachment": {"properties": {"id": "uuid", "fileName": "string", "byteCount": "int",
                                      "contentType": "string", "downloadURL": {"type": "url", "json": "download_url"}}},
        "LocalizedText": {"properties": {"language": "string", "text": "string"}},
    }
    # Fifteen more generic shared records, each a little different.
    for index in range(15):
        properties = {"id": "string", "label": "string"}
        for field in range(3 + index % 5):
            scalar = SCALARS[(index + field) % len(SCALARS)]
            optional = "?" if (index + field) % 3 == 0 else ""
            properties[f"field{field}Value"] = scalar + optional
        if index % 2 == 0:
            properties["links"] = "[Link]"
        if index % 3 == 0:
            properties["metadata"] = "[string: string]"
        models[f"SharedRecord{index}"] = {"properties": properties}
    assert len(models) == 30
    return models


def resource_models(index, name):
    kind = f"{name}Kind"
    status = f"{name}Status"
    line = f"{name}Line"
    shared = f"SharedRecord{index % 15}"
    record = {
        "description": f"A {snake(name).replace('_', ' ')} as the API returns it.",
        "properties": {
            "id": "string",
            "name": "string",
            "description": {"type": "string?", "description": "Free text; may be long."},
            "kind": kind,
            "status": status,
            "audit": "AuditInfo",
            "price": "Money?",
            "tags": "[string]",
            "attributes": "[string: string]",
            "counts": "[string: int]",
            "lines": f"[{line}]",
            "related": "[" + f"{RESOURCES[(index + 1) % 50]}Summary" + "]",
            "owner": shared,
            "images": "[ImageRef]?",
            "visibility": "Visibility",
            "score": "double",
            "position": "int",
            "isFavorite": "bool",
            "webURL": {"type": "url?", "json": "web_url"},
            "externalID": {"type": "uuid?", "json": "external_id"},
        },
    }
    if index % 4 == 0:
        record["properties"]["address"] = "Address?"
    if index % 5 == 0:
        record["properties"]["validity"] = "Period"
    if index % 6 == 0:
        record["properties"]["titles"] = "[LocalizedText]"
    return {
        name: record,
        f"{name}Summary": {"description": f"What a list shows of a {snake(name).replace('_', ' ')}.",
                           "properties": {"id": "string", "name": "string", "kind": kind,
                                          "updatedAt": "date", "thumbnail": "ImageRef?"}},
        line: {"properties": {"sku": "string", "quantity": "int", "amount": "Money",
                              "note": "string?", "attachments": "[Attachment]"}},
        f"{name}Input": {"description": "What a client sends to create or change one.",
                         "properties": {"name": "string", "description": "string?", "kind": kind,
                                        "tags": "[string]?", "attributes": "[string: string]?"}},
        kind: {"enum": KIND_VALUES[index % len(KIND_VALUES)]},
        status: {"enum": STATUS_VALUES[index % len(STATUS_VALUES)]},
    }


def resource_endpoints(index, name):
    base = "/" + snake(name).replace("_", "-") + "s"
    child = RESOURCES[(index + 7) % 50]
    child_path = "/" + snake(child).replace("_", "-") + "s"
    kind = f"{name}Kind"
    status = f"{name}Status"
    lower = name[0].lower() + name[1:]
    endpoints = {
        f"list{name}s": {
            "description": f"Pages through {lower}s.",
            "path": base,
            "query": {"page": "int", "per_page": "int?", "sort": "string?", "kind": f"{kind}?",
                      "status": f"[{status}]?", "updated_since": "date?"},
            "response": f"[{name}Summary]",
            "cache": {"ttl": "5m", "key": ["page", "per_page", "sort", "kind", "status", "updated_since"]},
        },
        f"get{name}": {
            "path": base + "/{id}",
            "response": name,
            "cache": {"ttl": "10m", "policy": "cacheFirst"},
        },
        f"get{name}ByNumber": {
            "path": base + "/by-number/{number}",
            "pathParameters": {"number": "int"},
            "response": name,
            "cache": {"ttl": 600},
        },
        f"get{name}Lines": {
            "path": base + "/{id}/lines",
            "query": {"cursor": "string?", "limit": "int?"},
            "response": f"[{name}Line]",
            "cache": {"ttl": "2m", "key": ["id", "cursor"]},
        },
        f"get{name}Attachments": {
            "path": base + "/{id}/attachments",
            "response": "[Attachment]",
            "cache": {"ttl": "1h", "maxStale": "30d"},
        },
        f"list{name}{child}s": {
            "description": f"The {snake(child).replace('_', ' ')}s of one {lower}.",
            "path": base + "/{id}" + child_path,
            "query": {"page": "int?"},
            "response": f"[{child}Summary]",
            "cache": {"ttl": "5m", "policy": "staleWhileRevalidate"},
        },
        f"search{name}s": {
            "path": base + "/search",
            "query": {"q": "string", "page": "int?", "exact": "bool?", "min_score": "double?"},
            "headers": {"Accept-Language": "string?"},
            "response": f"[{name}Summary]",
            "cache": {"ttl": "10m", "key": ["q", "page", "exact", "min_score", "Accept-Language"]},
        },
        f"query{name}s": {
            "description": "A search with a structured filter, sent as POST.",
            "method": "POST",
            "path": base + "/query",
            "body": f"{name}Input",
            "response": f"[{name}Summary]",
            "cache": {"ttl": "1m", "key": ["body"]},
        },
        f"get{name}Stats": {
            "path": base + "/{id}/stats",
            "query": {"period": "string", "at": "date?"},
            "response": "[string: double]",
            "cache": {"ttl": "15m", "scope": "user"},
        },
        f"get{name}Rating": {
            "path": base + "/{id}/rating",
            "response": "Rating",
            "cache": {"ttl": "1d", "scope": "shared"},
        },
        f"get{name}History": {
            "path": base + "/{id}/history",
            "query": {"since": "date?", "until": "date?", "limit": "int?"},
            "headers": {"X-Api-Version": "int"},
            "response": "[AuditInfo]",
            "cache": {"ttl": "30m", "key": ["id", "since", "until", "X-Api-Version"]},
        },
        f"get{name}Links": {
            "path": base + "/{id}/links",
            "response": "[Link]",
            "cache": True,
        },
        f"get{name}Owner": {
            "path": base + "/{id}/owner",
            "response": f"SharedRecord{index % 15}",
            "cache": {"ttl": "1h", "policy": "networkFirst", "maxStale": "7d"},
        },
        f"get{name}ByExternalID": {
            "path": base + "/external/{externalId}",
            "pathParameters": {"externalId": "uuid"},
            "response": name,
            "cache": {"ttl": "10m"},
        },
        f"get{name}Settings": {
            "path": base + "/{id}/settings",
            "response": "[string: string]",
            "cache": False,
        },
        f"create{name}": {
            "method": "POST",
            "path": base,
            "body": f"{name}Input",
            "response": name,
            "invalidates": [f"list{name}s", f"search{name}s"],
        },
        f"update{name}": {
            "method": "PUT",
            "path": base + "/{id}",
            "body": f"{name}Input",
            "response": name,
            "headers": {"If-Match": "string?"},
            "invalidates": [f"get{name}", f"list{name}s"],
        },
        f"patch{name}Status": {
            "method": "PATCH",
            "path": base + "/{id}/status",
            "query": {"status": status},
            "response": name,
        },
        f"delete{name}": {
            "method": "DELETE",
            "path": base + "/{id}",
            "invalidates": [f"get{name}", f"list{name}s"],
        },
        f"archive{name}": {
            "method": "POST",
            "path": base + "/{id}/archive",
            "query": {"reason": "string?", "notify": "bool?"},
        },
    }
    assert len(endpoints) == 20
    return endpoints


def make_spec():
    models = shared_models()
    repositories = {}
    for index, name in enumerate(RESOURCES):
        models.update(resource_models(index, name))
        repositories[f"{name}Repository"] = {
            "description": f"{name}s and what belongs to them.",
            "endpoints": resource_endpoints(index, name),
        }
    return {
        "version": 1,
        "baseURL": "https://api.example.com/v2",
        "defaults": {
            "cache": {"ttl": "5m", "policy": "networkFirst", "maxStale": "7d"},
            "jsonKeys": "snake_case",
            "dates": "iso8601",
        },
        "models": models,
        "repositories": repositories,
    }


def make_shape_spec(endpoint_count, shape, add_property=False, add_endpoint=False):
    """The chain or cycle shape: models M0 … M(n-1), each owning the next."""
    model_count = max(1, endpoint_count // 3)
    models = {}
    for index in range(model_count):
        following = index + 1
        properties = {"id": "string", "name": "string", "count": "int", "updatedAt": "date?"}
        if following < model_count:
            properties["owner"] = f"M{following}?"
        elif shape == "cycle":
            properties["owner"] = "M0?"
        if add_property and index == model_count // 2:
            properties["note"] = "string?"
        models[f"M{index}"] = {"properties": properties}
    kinds = ["get", "list", "delete"]
    endpoints = []
    for number in range(endpoint_count):
        model, kind = f"M{(number // 3) % model_count}", kinds[number % 3]
        path = f"/e{number}/{model.lower()}"
        if kind == "get":
            endpoint = {"path": path + "/{id}", "response": model, "cache": {"ttl": "5m"}}
        elif kind == "list":
            endpoint = {"path": path, "query": {"page": "int?"}, "response": f"[{model}]", "cache": {"ttl": "1m"}}
        else:
            endpoint = {"method": "DELETE", "path": path + "/{id}"}
        endpoints.append((f"{kind}{model}E{number}", endpoint))
    if add_endpoint:
        endpoints.append(("getM0Extra", {"path": "/extra/m0/{id}", "response": "M0", "cache": {"ttl": "5m"}}))
    repositories = {}
    for start in range(0, endpoint_count, 20):
        last = start + 20 >= endpoint_count
        chosen = endpoints[start:] if last else endpoints[start:start + 20]
        repositories[f"R{start // 20}Repository"] = {"endpoints": dict(chosen)}
    return {
        "version": 1,
        "baseURL": "https://api.example.com/v2",
        "defaults": {"cache": {"ttl": "5m", "policy": "networkFirst", "maxStale": "7d"}},
        "models": models,
        "repositories": repositories,
    }


OPENAPI_TYPES = {
    "string": {"type": "string"},
    "int": {"type": "integer"},
    "date": {"type": "string", "format": "date-time"},
}


def openapi_document(spec):
    """The shape spec as an OpenAPI 3.0 document: the same operations, names and models."""
    schemas = {}
    for name, model in spec["models"].items():
        properties, required = {}, []
        for property_name, type_name in model["properties"].items():
            optional = type_name.endswith("?")
            base = type_name.rstrip("?")
            properties[property_name] = dict(OPENAPI_TYPES[base]) if base in OPENAPI_TYPES \
                else {"$ref": f"#/components/schemas/{base}"}
            if not optional:
                required.append(property_name)
        schemas[name] = {"type": "object", "required": required, "properties": properties}
    paths = {}
    for repository, body in spec["repositories"].items():
        tag = repository[: -len("Repository")]
        for name, endpoint in body["endpoints"].items():
            method = endpoint.get("method", "GET").lower()
            operation = {"operationId": name, "tags": [tag]}
            parameters = []
            if "{id}" in endpoint["path"]:
                parameters.append({"name": "id", "in": "path", "required": True, "schema": {"type": "string"}})
            for query_name in endpoint.get("query", {}):
                parameters.append({"name": query_name, "in": "query", "required": False, "schema": {"type": "integer"}})
            if parameters:
                operation["parameters"] = parameters
            response = endpoint.get("response")
            if response is None:
                operation["responses"] = {"204": {"description": "Deleted."}}
            else:
                reference = {"$ref": f"#/components/schemas/{response.strip('[]')}"}
                schema = {"type": "array", "items": reference} if response.startswith("[") else reference
                operation["responses"] = {"200": {"description": "OK", "content": {"application/json": {"schema": schema}}}}
            paths.setdefault(endpoint["path"], {})[method] = operation
    return {
        "openapi": "3.0.3",
        "info": {"title": "Shape", "version": "1.0.0"},
        "servers": [{"url": spec["baseURL"]}],
        "paths": paths,
        "components": {"schemas": schemas},
    }


def main():
    parser = argparse.ArgumentParser(description="Writes a synthetic cachegen spec.")
    parser.add_argument("path")
    parser.add_argument("--endpoints", type=int, default=120, help="with --shape: how many endpoints")
    parser.add_argument("--shape", choices=["chain", "cycle"], help="the build-cost shapes instead of the mix")
    parser.add_argument("--openapi", action="store_true", help="with --shape: as an OpenAPI 3.0 document (JSON)")
    parser.add_argument("--add-property", action="store_true", help="with --shape: one more property on the middle model")
    parser.add_argument("--add-endpoint", action="store_true", help="with --shape: one more cached GET")
    arguments = parser.parse_args()
    if arguments.shape:
        spec = make_shape_spec(arguments.endpoints, arguments.shape, arguments.add_property, arguments.add_endpoint)
    elif arguments.openapi or arguments.add_property or arguments.add_endpoint:
        parser.error("--openapi, --add-property and --add-endpoint need --shape")
    else:
        spec = make_spec()
    sys.argv = [sys.argv[0], arguments.path]
    endpoints = sum(len(r["endpoints"]) for r in spec["repositories"].values())
    with open(sys.argv[1], "w", encoding="utf-8") as file:
        json.dump(openapi_document(spec) if arguments.openapi else spec, file, indent=2)
        file.write("\n")
    sys.stderr.write(f"wrote {sys.argv[1]}: {endpoints} endpoints, {len(spec['models'])} models\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

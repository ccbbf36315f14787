#!/usr/bin/env python3
"""Writes a large synthetic OpenAPI 3.0 document in YAML to PATH, for timing the YAML reader.

The document looks like a big real API description (GitHub's REST description is ~10 MB):
paths with operations, parameters, request bodies and responses; component schemas with
properties, enums, flow sequences, $refs; descriptions as plain, quoted, literal (|) and
folded (>) scalars; comments; an anchor with aliases. The output is deterministic.

Usage: python3 Scripts/make-large-openapi-yaml.py PATH [OPERATIONS]   (default 6,000 ≈ 10 MB)
"""
import sys

RESOURCES = ["account", "order", "product", "customer", "invoice", "payment", "shipment", "warehouse",
             "supplier", "category", "review", "coupon", "cart", "ticket", "article", "comment"]


def operation(out, method, resource, index, has_body):
    name = f"{method}{resource.capitalize()}{index}"
    out.append(f"    {method}:")
    out.append(f"      operationId: {name}")
    out.append(f"      summary: {method.upper()} a {resource} number {index} with its related records")
    out.append("      description: |")
    out.append(f"        Returns the {resource} with the given identifier, including nested objects.")
    out.append("        The response is cached by clients for a short time; see the `Cache-Control` header.")
    out.append("")
    out.append(f"        Deprecated fields are listed in the changelog for version {index % 7}.{index % 10}.")
    out.append(f"      tags: [{resource}s, reporting]")
    out.append("      parameters:")
    out.append(f"        - name: {resource}Id")
    out.append("          in: path")
    out.append("          required: true")
    out.append("          description: 'The identifier, as returned by the list operation.'")
    out.append("          schema: {type: string, format: uuid}")
    out.append("        - name: per_page")
    out.append("          in: query")
    out.append("          schema:")
    out.append("            type: integer")
    out.append("            minimum: 1")
    out.append("            maximum: 100")
    out.append("            default: 30")
    out.append("        - $ref: '#/components/parameters/page'")
    if has_body:
        out.append("      requestBody:")
        out.append("        required: true")
        out.append("        content:")
        out.append("          application/json:")
        out.append("            schema:")
        out.append(f"              $ref: '#/components/schemas/{resource.capitalize()}{index % 40}Input'")
    out.append("      responses:")
    out.append("        '200':")
    out.append(f"          description: \"The {resource}, with \\\"links\\\" to related resources.\"")
    out.append("          headers: *standardHeaders")
    out.append("          content:")
    out.append("            application/json:")
    out.append("              schema:")
    out.append(f"                $ref: '#/components/schemas/{resource.capitalize()}{index % 40}'")
    out.append("        404:")
    out.append("          $ref: '#/components/responses/not_found'  # shared")


def schema(out, resource, index):
    name = f"{resource.capitalize()}{index}"
    out.append(f"    {name}:")
    out.append("      type: object")
    out.append("      description: >")
    out.append(f"        A {resource} as the API returns it. Fields marked required are always present;")
    out.append("        the others depend on the caller's permissions.")
    out.append("      required: [id, name, created_at, status]")
    out.append("      properties:")
    out.append("        id: {type: string, format: uuid, example: 3fa85f64-5717-4562-b3fc-2c963f66afa6}")
    out.append("        name:")
    out.append("          type: string")
    out.append("          maxLength: 200")
    out.append(f"          example: Example {resource} {index}")
    out.append("        created_at: {type: string, format: date-time}")
    out.append("        amount: {type: number, format: double, example: 12.5}")
    out.append("        count: {type: integer, format: int64, minimum: 0}")
    out.append("        active: {type: boolean, default: true}")
    out.append("        status:")
    out.append("          type: string")
    out.append("          enum: [pending, active, suspended, closed]")
    out.append("        tags:")
    out.append("          type: array")
    out.append("          items: {type: string}")
    out.append("        metadata:")
    out.append("          type: object")
    out.append("          additionalProperties: {type: string}")
    out.append("          nullable: true")
    out.append("        owner:")
    out.append("          $ref: '#/components/schemas/Customer0'")
    out.append(f"    {name}Input:")
    out.append("      type: object")
    out.append("      properties:")
    out.append("        name: {type: string}")
    out.append("        note:")
    out.append("          type: string")
    out.append("          description: \"Free text, up to 2,000 characters.\\nShown to the customer.\"")


def main():
    path = sys.argv[1]
    operations = int(sys.argv[2]) if len(sys.argv) > 2 else 6000
    out = ["# A synthetic API description for timing the YAML reader.", "openapi: 3.0.3", "info:",
           "  title: Synthetic Large API", "  version: 1.0.0", "  description: |",
           "    A made-up API, as large as the biggest real descriptions.", "servers:",
           "  - url: https://api.example.com/v1",
           "x-standard-headers: &standardHeaders",
           "  X-Rate-Limit: {schema: {type: integer}}",
           "  ETag: {schema: {type: string}}",
           "paths:"]
    per_path = 4
    for path_index in range(operations // per_path):
        resource = RESOURCES[path_index % len(RESOURCES)]
        out.append(f"  /{resource}s/{path_index}/{{{resource}Id}}:")
        for method_index, method in enumerate(["get", "put", "post", "delete"]):
            operation(out, method, resource, path_index * per_path + method_index, method in ("put", "post"))
    out.append("components:")
    out.append("  headers:")
    out.append("    standard: *standardHeaders")
    out.append("  parameters:")
    out.append("    page: {name: page, in: query, schema: {type: integer, default: 1}}")
    out.append("  responses:")
    out.append("    not_found: {description: Not found}")
    out.append("  schemas:")
    for resource in RESOURCES:
        for index in range(40):
            schema(out, resource, index)
    with open(path, "w") as handle:
        handle.write("\n".join(out) + "\n")


main()

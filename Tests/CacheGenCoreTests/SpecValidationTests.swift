import CacheGenCore
import CacheGenOpenAPI
import Foundation
import Testing

/// Every validation rule, with the exact message and location a user sees.
@Suite struct SpecValidationTests {

    /// `response` objects: bytes and text take no type, streams need one, are never cached,
    /// never page and never invalidate.
    @Test func responseFormats() {
        let spec = #"""
{
  "version": 1,
  "models": { "A": { "properties": { "id": "string" } } },
  "repositories": { "R": { "endpoints": {
    "list": { "path": "/a", "response": "[A]" },
    "bytes": { "path": "/b", "response": { "type": "string", "format": "data" } },
    "typeless": { "path": "/c", "response": { "format": "events" } },
    "odd": { "path": "/d", "response": { "type": "A", "format": "bytes", "kind": 1 } },
    "cached": { "path": "/e", "response": { "type": "A", "format": "jsonLines" }, "cache": { "ttl": "1m" } },
    "paged": { "path": "/f", "query": { "page": "int?" }, "response": { "type": "[A]", "format": "events" }, "paging": { "page": "page" } },
    "posted": { "method": "POST", "path": "/a", "body": "A", "response": { "type": "A", "format": "events" }, "invalidates": ["list"] },
    "text": { "path": "/g", "response": { "format": "text" } }
  } } }
}
"""#
        #expect(
            diagnostics(spec) == [
                #"spec.json:6:52: error: "response" with "format": "data" is read as Data; remove "type""#,
                #"spec.json:7:45: error: "response" with "format": "events" needs a "type": the type of each value in the stream"#,
                #"spec.json:8:65: error: "format" cannot be "bytes"; valid values are "json", "data", "text", "events", "jsonLines", "jsonSequence", "multipart""#,
                #"spec.json:8:74: error: unknown key "kind" in "response"; valid keys are "type", "format", "channel""#,
                #"spec.json:9:92: error: endpoint "cached" streams its response ("format": "jsonLines"), which is never cached; set "cache": false"#,
                #"spec.json:10:120: error: "paging" needs one JSON value per page; "paged" streams its response ("format": "events")"#,
                #"spec.json:11:127: error: endpoint "posted" streams its response, so it cannot invalidate; remove "invalidates""#,
            ])
    }
    /// A parameter written `{ "type": …, "style": "json" }` is sent as JSON text, whatever its
    /// type; the object takes only those keys, needs a type, and knows no other style.
    @Test func parametersAsJSONText() throws {
        let spec = #"""
        {
          "version": 1,
          "models": { "Filter": { "properties": { "field": "string", "since": "date?" } } },
          "repositories": { "R": { "endpoints": {
            "find": { "path": "/f/{where}", "pathParameters": { "where": { "type": "Filter", "style": "json" } },
              "query": { "filters": { "type": "[Filter]?", "style": "json" }, "extra": { "type": "json?", "style": "json" } },
              "headers": { "X-Context": { "type": "json?", "style": "json" } }, "response": "string" }
          } } }
        }
        """#
        #expect(diagnostics(spec) == [])
        let source = try #require(Generator.generate(Data(spec.utf8), path: "spec.json").source)
        #expect(source.contains(#"request.setPathParameter("where", json: `where`, coding: JSONCoding(dates: .iso8601))"#))
        #expect(source.contains(#"request.addQuery("filters", json: filters, coding: JSONCoding(dates: .iso8601), isKey: true)"#))
        #expect(source.contains(#"request.addHeader("X-Context", json: xContext, coding: JSONCoding(dates: .iso8601), isKey: false)"#))
        let wrong = #"""
        {
          "version": 1,
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a", "query": { "f": { "type": "json", "style": "deepObject" }, "g": { "style": "json" }, "h": { "type": "int", "explode": false } } }
          } } }
        }
        """#
        #expect(
            diagnostics(wrong) == [
                #"spec.json:4:69: error: "style" cannot be "deepObject"; the one style a spec parameter takes is "json" (the value as JSON text)"#,
                #"spec.json:4:90: error: parameter "g" needs a "type""#,
                #"spec.json:4:133: error: unknown key "explode" in parameter "h"; valid keys are "type", "style""#,
            ])
    }

    /// Key names exist, appear once, and include every path parameter.
    @Test func cacheKeys() {
        let spec = #"""
        {
          "version": 1,
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a/{id}", "query": { "page": "int" }, "response": "string", "cache": { "key": ["page"] } },
            "b": { "path": "/b", "query": { "page": "int" }, "response": "string", "cache": { "key": ["pgae", "page", "page"] } }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:90: error: "key" of "a" leaves out path parameter "id"; add it, or two different resources would share one entry"#,
                #"spec.json:5:95: error: "key" names "pgae", which is not a parameter of "b"; did you mean "page"?"#,
                #"spec.json:5:111: error: "key" lists "page" twice"#,
            ])
    }

    /// Only calls that change data invalidate, and only endpoints of the repository that cache.
    @Test func invalidates() {
        let spec = #"""
        {
          "$schema": "https://github.com/cachegen/cachegen/Schemas/cachegen.schema.json",
          "version": 1,
          "models": { "A": { "properties": { "id": "string" } } },
          "repositories": { "R": { "endpoints": {
            "list": { "path": "/a", "response": "[A]" },
            "one": { "path": "/a/{id}", "response": "A", "cache": false },
            "add": { "method": "POST", "path": "/a", "body": "A", "invalidates": ["list", "lsit", "one", "list"] },
            "get": { "path": "/b", "response": "A", "invalidates": ["list"] },
            "bad": { "method": "DELETE", "path": "/a/{id}", "invalidates": "list" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:8:83: error: "invalidates" names "lsit", which is not an endpoint of R; did you mean "list"?"#,
                #"spec.json:8:91: error: "invalidates" names "one", which is never cached; remove it from the list"#,
                #"spec.json:8:98: error: "invalidates" lists "list" twice"#,
                #"spec.json:9:61: error: GET endpoint "get" cannot invalidate; only calls that change data (POST, PUT, PATCH, DELETE) do"#,
                #"spec.json:10:68: error: "invalidates" must be an array of endpoint names; found a string"#,
            ])
    }

    /// Names with nothing to build a Swift name from, names generated code needs, nesting limits.
    @Test func limitsAndUnusableNames() {
        let spec = #"""
        {
          "version": 1,
          "models": {
            "CodingKeys": { "enum": ["a"] },
            "E": { "enum": ["a", "[:]", "value2"] },
            "M": { "properties": { "": "string", "deep": "[[[[[[[[[int]]]]]]]]]" } }
          },
          "repositories": { "R": { "endpoints": {
            "@": { "path": "/x", "response": "M" },
            "get": { "path": "/e/{_}", "response": "E" },
            "search": { "method": "POST", "path": "/s", "body": "M", "response": "M", "cache": { "key": ["body"] }, "invalidates": ["get"] }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:5: error: "CodingKeys" clashes with CodingKeys, a name Swift, Foundation or the generated code already uses; rename it, for example to "ApiCodingKeys""#,
                #"spec.json:5:33: error: enum values "[:]" (5:26) and "value2" both become the case value2 in Swift; cachegen cannot generate both"#,
                #"spec.json:6:28: error: "" has no letter or digit to make a Swift property name from; name it in the spec and keep the wire name with "json""#,
                #"spec.json:6:50: error: invalid type "[[[[[[[[[int]]]]]]]]]"; types may nest at most 8 levels of [ ]"#,
                #"spec.json:9:5: error: "@" has no letter or digit to make a Swift method name from; rename it"#,
                #"spec.json:10:22: error: "_" has no letter or digit to make a Swift argument name from; rename it"#,
                #"spec.json:11:125: error: POST endpoint "search" is cached, so it cannot invalidate; set "cache": false or remove "invalidates""#,
            ])
    }

    /// A JSON syntax error is reported with its location.
    @Test func malformedJSONStopsAtTheSyntaxError() {
        let spec = #"""
        {
          "version": 1,
          "repositories": {},
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:3:21: error: trailing comma before '}'; remove it"#,
            ])
    }

    /// Only GET is cached unless opted in with the body in the key; methods and bodies.
    @Test func methodsAndCachingRules() {
        let spec = #"""
        {
          "version": 1,
          "models": { "Q": { "properties": { "q": "string" } } },
          "repositories": { "R": { "endpoints": {
            "a": { "method": "POST", "path": "/a", "body": "Q", "response": "string", "cache": true },
            "b": { "method": "POST", "path": "/b", "body": "Q", "response": "string", "cache": { "ttl": "1m" } },
            "c": { "method": "POST", "path": "/c", "body": "Q", "response": "string", "cache": { "key": ["body"] } },
            "d": { "method": "FETCH", "path": "/d" },
            "e": { "method": "GET", "path": "/e", "body": "Q", "response": "string" },
            "f": { "path": "/f", "cache": true }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:5:88: error: POST endpoint "a" is cached only when its body is in the key; add "body" to "cache"."key" or set "cache": false"#,
                #"spec.json:6:88: error: POST endpoint "b" is cached only when its body is in the key; add "body" to "cache"."key" or set "cache": false"#,
                #"spec.json:8:22: error: unknown HTTP method "FETCH"; use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, QUERY"#,
                #"spec.json:9:51: error: GET endpoint "e" cannot have a body; send it as query items"#,
                #"spec.json:10:35: error: endpoint "f" has no "response" to cache; add one or set "cache": false"#,
            ])
    }

    /// version and repositories are required.
    @Test func missingRequiredKeys() {
        let spec = #"""
        { "models": {} }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:1:1: error: missing "version"; add "version": 1 at the top of the spec"#,
                #"spec.json:1:1: error: missing "repositories"; add at least one repository with its endpoints"#,
            ])
    }

    /// Reserved and duplicate type names, enum values, properties, methods and arguments.
    @Test func swiftNames() {
        let spec = #"""
        {
          "version": 1,
          "models": {
            "String": { "properties": { "a": "string" } },
            "account_kind": { "enum": ["a"] },
            "AccountKind": { "enum": [] },
            "Color": { "enum": ["red", "red", "dark-blue", "dark_blue", ""] },
            "Item": { "properties": { "user_id": "string", "userId": "string", "x": { "type": "string", "json": "user_id" } } }
          },
          "repositories": { "R": { "endpoints": {
            "get_a": { "path": "/a", "response": "string" },
            "getA": { "path": "/b", "response": "string" },
            "q": { "path": "/q", "query": { "policy": "string", "per_page": "int", "perPage": "int", "m": "Item" }, "response": "string" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:5: error: "String" clashes with String, a name Swift, Foundation or the generated code already uses; rename it, for example to "ApiString""#,
                #"spec.json:6:5: error: "AccountKind" becomes the Swift type AccountKind, like "account_kind" at 5:5; rename one of them"#,
                #"spec.json:6:5: error: enum "AccountKind" has no values; list at least one"#,
                #"spec.json:7:32: error: enum "Color" lists "red" twice (first at 7:25)"#,
                #"spec.json:7:52: error: enum values "dark-blue" (7:39) and "dark_blue" both become the case darkBlue in Swift; cachegen cannot generate both"#,
                #"spec.json:7:65: error: enum "Color" has an empty value"#,
                #"spec.json:8:52: error: properties "user_id" (8:31) and "userId" both become userId in Swift; rename one and keep the wire name with "json""#,
                #"spec.json:8:72: error: properties "user_id" and "x" both use the JSON name "user_id""#,
                #"spec.json:12:5: error: endpoint "getA" becomes the method getA, like "get_a" at 11:5; rename one of them"#,
                #"spec.json:13:76: error: query parameter "perPage" becomes the argument perPage, like query parameter "per_page" at 13:57; the generated method cannot take both"#,
                #"spec.json:13:99: error: query parameter "m" has type Item, which cannot be sent as text; use a scalar, an enum model or an array of them, or send it as JSON text with { "type": …, "style": "json" }"#,
            ])
    }

    /// A model named like a built-in type word (`file`, `json`) could never be used, since the
    /// word in a type is the built-in: an error says so and what to call it; `data` and `Data`
    /// clash with Foundation's `Data`; `File` is a model like any other.
    @Test func modelsNamedLikeBuiltInTypes() {
        let spec = #"""
        {
          "version": 1,
          "models": {
            "file": { "properties": { "name": "string" } },
            "json": { "properties": { "name": "string" } },
            "data": { "properties": { "name": "string" } },
            "Data": { "properties": { "name": "string" } },
            "File": { "properties": { "name": "string" } }
          },
          "repositories": { "R": { "endpoints": {
            "get": { "path": "/f", "response": "File" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:5: error: model "file" has the name of the built-in type file (MultipartFile), which is what "file" means in a type; rename the model, for example to "ApiFile""#,
                #"spec.json:5:5: error: model "json" has the name of the built-in type json (JSONValue), which is what "json" means in a type; rename the model, for example to "Json""#,
                #"spec.json:6:5: error: "data" clashes with Data, a name Swift, Foundation or the generated code already uses; rename it, for example to "ApiData""#,
                #"spec.json:7:5: error: "Data" clashes with Data, a name Swift, Foundation or the generated code already uses; rename it, for example to "ApiData""#,
                #"spec.json:8:5: error: "File" becomes the Swift type File, like "file" at 4:5; rename one of them"#,
            ])
        // Alone, `File` is a model like any other, and `file` the built-in.
        let file = #"""
        {
          "version": 1,
          "models": { "File": { "properties": { "name": "string" } }, "Upload": { "properties": { "file": "file" } } },
          "repositories": { "R": { "endpoints": {
            "get": { "path": "/f", "response": "File" },
            "upload": { "method": "POST", "path": "/f", "body": { "type": "Upload", "encoding": "multipart" }, "cache": false }
          } } }
        }
        """#
        #expect(diagnostics(file) == [])
        let source = Generator.generate(Data(file.utf8), path: "spec.json").source ?? ""
        #expect(source.contains("func get(policy: CachePolicy?) async throws -> CachedValue<File>"))
        #expect(source.contains("public var file: MultipartFile\n"))
    }

    /// Arrays of scalars and enums go in headers and paths too, joined by commas (OpenAPI's
    /// `simple` style); an object still cannot.
    @Test func arraysInHeadersAndPaths() {
        let spec = #"""
        {
          "version": 1,
          "models": { "Kind": { "enum": ["a", "b"] }, "Thing": { "properties": { "id": "string" } } },
          "repositories": { "R": { "endpoints": {
            "get": { "path": "/t/{ids}", "pathParameters": { "ids": "[int]" }, "headers": { "X-Kinds": "[Kind]?", "X-Thing": "Thing" }, "response": "Thing" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:5:118: error: header parameter "X-Thing" has type Thing, which cannot be sent as text; use a scalar, an enum model or an array of them, or send it as JSON text with { "type": …, "style": "json" }"#
            ])
        let source = Generator.generate(Data(spec.replacingOccurrences(of: #", "X-Thing": "Thing""#, with: "").utf8), path: "spec.json").source ?? ""
        #expect(source.contains(#"request.setPathParameter("ids", ids)"#))
        #expect(source.contains(#"request.addHeader("X-Kinds", xKinds?.map(\.rawValue), isKey: false)"#))
    }

    /// Paths start with /, braces balance, parameters are named, declared and not optional.
    @Test func pathTemplates() {
        let spec = #"""
        {
          "version": 1,
          "repositories": { "R": { "endpoints": {
            "a": { "path": "accounts", "response": "string" },
            "b": { "path": "/a/{id", "response": "string" },
            "c": { "path": "/a/{}", "response": "string" },
            "d": { "path": "/a/{id}/{id}", "response": "string" },
            "e": { "path": "/a/{id}", "pathParameters": { "ident": "int" }, "response": "string" },
            "f": { "path": "/a/{id}", "pathParameters": { "id": "int?" }, "response": "string" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:20: error: path "accounts" must start with "/""#,
                #"spec.json:5:20: error: path "/a/{id" has a "{" that is never closed"#,
                #"spec.json:6:20: error: path "/a/{}" has an empty "{}"; name the parameter"#,
                #"spec.json:7:20: error: path "/a/{id}/{id}" uses "{id}" twice"#,
                #"spec.json:8:51: error: path parameter "ident" is declared but the path has no "{ident}""#,
                #"spec.json:9:57: error: path parameter "id" cannot be optional: every path segment needs a value"#,
            ])
    }

    /// Duration syntax, maxStale shorter than ttl, policy and scope names.
    @Test func durationsPoliciesAndScopes() {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "cache": { "ttl": "10 min", "maxStale": -5 } },
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a", "response": "string", "cache": { "ttl": "5x", "maxStale": "1m", "policy": "cacheFrist", "scope": "everyone" } }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:3:35: error: invalid duration "10 min"; write seconds (600) or a whole number with s, m, h or d ("10m"); a ttl may also be "server""#,
                #"spec.json:3:57: error: invalid duration -5; write seconds (600) or a whole number with s, m, h or d ("10m"); a ttl may also be "server""#,
                #"spec.json:5:66: error: invalid duration "5x"; write seconds (600) or a whole number with s, m, h or d ("10m"); a ttl may also be "server""#,
                #"spec.json:5:84: warning: "maxStale" (1 minute) is shorter than "ttl" (5 minutes); entries are kept for the ttl"#,
                #"spec.json:5:100: error: "policy" cannot be "cacheFrist"; did you mean "cacheFirst"?"#,
                #"spec.json:5:123: error: "scope" cannot be "everyone"; valid values are "user", "shared""#,
            ])
    }

    /// Type strings: unknown models, syntax, dictionary keys, double optionals, wrong kinds.
    @Test func typeStrings() {
        let spec = #"""
        {
          "version": 1,
          "models": {
            "Account": { "properties": { "a": "Acount", "b": "[string", "c": "[int: string]", "d": "string??", "e": 5 } }
          },
          "repositories": {}
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:39: error: unknown type "Acount"; did you mean "Account"?"#,
                #"spec.json:4:54: error: invalid type "[string"; expected ']'"#,
                #"spec.json:4:70: error: invalid type "[int: string]"; dictionary keys must be string, as in [string: double]"#,
                #"spec.json:4:92: error: invalid type "string??"; a type can be optional only once"#,
                #"spec.json:4:109: error: property "e" must be a type string such as "string" or an object with "type"; found a number"#,
            ])
    }

    /// `json` is any JSON in a property, a body or a response, and never a parameter.
    @Test func jsonIsAnyJSONButNotAParameter() throws {
        let spec = #"""
        {
          "version": 1,
          "models": { "Event": { "properties": { "payload": "json", "tags": "[string: json]?", "list": "[json]" } } },
          "repositories": { "R": { "endpoints": {
            "find": { "path": "/find", "query": { "filter": "json" }, "response": "json" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:5:53: error: query parameter "filter" has type json, which cannot be sent as text; use a scalar, an enum model or an array of them, or send it as JSON text with { "type": …, "style": "json" }"#
            ])
        let valid = spec.replacingOccurrences(of: #""query": { "filter": "json" }, "#, with: "")
        let source = try #require(Generator.generate(Data(valid.utf8), path: "spec.json").source)
        #expect(source.contains("public var payload: JSONValue\n"))
        #expect(source.contains("public var tags: [String: JSONValue]?\n"))
        #expect(source.contains("public var list: [JSONValue]\n"))
        #expect(source.contains("public func find(policy: CachePolicy?) async throws -> CachedValue<JSONValue> {"))
    }

    /// Unknown keys at any level are errors with a "did you mean".
    @Test func unknownKeysSuggestTheClosestKey() {
        let spec = #"""
        {
          "version": 1,
          "modles": {},
          "repositories": { "R": { "endpoints": {
            "get": { "path": "/a", "respnse": "string" }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:3:3: error: unknown key "modles" in the spec; did you mean "models"?"#,
                #"spec.json:5:28: error: unknown key "respnse" in endpoint "get"; did you mean "response"?"#,
            ])
    }

    /// Only spec version 1 is read.
    @Test func unsupportedVersion() {
        let spec = #"""
        { "version": 2, "repositories": {} }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:1:14: error: unsupported spec version 2; this cachegen reads version 1"#,
            ])
    }

    /// Values of the wrong JSON kind and unknown choices.
    @Test func wrongKindsOfValues() {
        let spec = #"""
        {
          "version": "1",
          "baseURL": "api.example.com",
          "defaults": { "jsonKeys": "kebab", "dates": "unix" },
          "models": [],
          "repositories": { "R": { "endpoints": { "a": { "path": "/a", "cache": 5, "query": "page" } } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:2:14: error: "version" must be a whole number; found a string"#,
                #"spec.json:3:14: error: "baseURL" must be an absolute http or https URL such as "https://api.example.com/v1""#,
                #"spec.json:4:29: error: "jsonKeys" cannot be "kebab"; valid values are "exact", "snake_case""#,
                #"spec.json:4:47: error: "dates" cannot be "unix"; valid values are "iso8601", "secondsSince1970", "millisecondsSince1970""#,
                #"spec.json:5:13: error: "models" must be an object; found an array"#,
                #"spec.json:6:73: error: "cache" must be true, false or an object; found a number"#,
                #"spec.json:6:85: error: "query" must be an object; found a string"#,
            ])
    }
}

/// The diagnostics of a spec, as the CLI prints them.
func diagnostics(_ spec: String, path: String = "spec.json") -> [String] {
    Generator.validate(Data(spec.utf8), path: path).map(\.description)
}

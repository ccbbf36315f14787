import CacheGenCore
import Foundation
import Testing

/// `retry` and `paging` in a spec and in an OpenAPI overlay: what is generated, and every
/// error with its exact message and location.
@Suite struct RetryAndPagingSpecTests {
    typealias Support = OpenAPITestSupport

    @Test func retryRulesAreGeneratedWithTheDefaultsForGETOnly() throws {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "retry": { "max": 3 } },
          "models": { "A": { "properties": { "id": "string" } } },
          "repositories": { "R": { "endpoints": {
            "list": { "path": "/a", "response": "[A]" },
            "one": { "path": "/a/{id}", "response": "A", "retry": false },
            "add": { "method": "POST", "path": "/a", "body": "A", "retry": { "max": 1 } },
            "remove": { "method": "DELETE", "path": "/a/{id}" }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains("shape: LiveR.listShape,") && source.contains("retry: RetryRule(max: 3)"))
        #expect(source.contains("retry: .never"))
        #expect(source.contains("retry: RetryRule(max: 1)"))
        #expect(source.components(separatedBy: "retry:").count == 4)  // remove: the client's choice (never for a DELETE)
    }

    @Test func retryErrors() {
        let spec = #"""
        {
          "version": 1,
          "defaults": { "retry": true },
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a", "response": "string", "retry": { "max": 11 } },
            "b": { "path": "/b", "response": "string", "retry": { "mx": 2 } },
            "c": { "path": "/c", "response": "string", "retry": { "max": 1.5 } }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:3:26: error: "retry" must be false or an object such as {"max": 2}; found true"#,
                #"spec.json:5:66: error: "max" must be a whole number from 0 to 10; found 11"#,
                #"spec.json:6:57: error: "retry" needs "max", the number of retries after the first attempt, such as {"max": 2}"#,
                #"spec.json:6:59: error: unknown key "mx" in "retry"; did you mean "max"?"#,
                #"spec.json:7:66: error: "max" must be a whole number from 0 to 10; found 1.5"#,
            ])
    }

    @Test func pagingErrors() {
        let spec = #"""
        {
          "version": 1,
          "models": {
            "Page": { "properties": { "items": "[A]", "pageInfo": "PageInfo" } },
            "PageInfo": { "properties": { "endCursor": "string?", "total": "double" } },
            "A": { "properties": { "id": "string" } }
          },
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a", "query": { "after": "string?" }, "response": "Page", "paging": { "cursor": { "response": "pageInfo.endCurser", "parameter": "after" } } },
            "b": { "path": "/b", "query": { "after": "string?" }, "response": "Page", "paging": { "cursor": { "response": "pageInfo.total", "parameter": "afterr" } } },
            "c": { "path": "/c", "query": { "page": "string" }, "response": "[A]", "paging": { "page": "page" } },
            "d": { "path": "/d", "query": { "offset": "int" }, "response": "Page", "paging": { "offset": "offset", "limit": "limit" } },
            "e": { "method": "POST", "path": "/e", "response": "[A]", "paging": { "link": "next" } },
            "f": { "path": "/f", "response": "[A]", "paging": { "link": "next", "page": "p" } },
            "g": { "path": "/g", "response": "[A]", "paging": { "offset": "o" } },
            "h": { "path": "/h", "query": { "page": "int" }, "response": "[A]", "cache": { "key": [] }, "paging": { "page": "page" } },
            "i": { "path": "/i", "query": { "after": "string?" }, "response": "[A]", "paging": { "cursor": { "response": "next", "parameter": "after" } } },
            "j": { "path": "/j", "query": { "after": "string" }, "response": "Page", "paging": { "cursor": { "response": "pageInfo.endCursor", "parameter": "after" } } }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:9:115: error: cursor path "pageInfo.endCurser" is not in the response model: PageInfo has no property "endCurser"; did you mean "endCursor"?"#,
                #"spec.json:10:115: error: cursor path "pageInfo.total" of "b" must end at a string or an int; found double"#,
                #"spec.json:10:146: error: "paging" names "afterr", which is not a query parameter of "b"; did you mean "after"?"#,
                #"spec.json:11:45: error: paging parameter "page" of "c" must be an int; found string"#,
                #"spec.json:12:86: error: page and offset paging need a response that is an array, to know when a page is the last; "d" returns Page"#,
                #"spec.json:12:117: error: "paging" names "limit", which is not a query parameter of "d"; valid query parameters are "offset""#,
                #"spec.json:13:73: error: "paging" needs a GET endpoint; "e" is a POST"#,
                #"spec.json:14:55: error: "paging" takes one of "link", "cursor", "page" or "offset"; found "link" and "page""#,
                #"spec.json:15:55: error: "offset" needs "limit", the page size parameter, such as {"offset": "offset", "limit": "limit"}"#,
                #"spec.json:16:82: error: "key" of "h" leaves out paging parameter "page"; add it, or every page would share one entry"#,
                #"spec.json:17:114: error: cursor path "next" is not in the response model: the response of "i" ([A]) is not an object model"#,
                #"spec.json:18:46: error: cursor parameter "after" of "j" must be optional (string?): the first page is asked for without it"#,
            ])
    }

    @Test func theOverlayCarriesRetryAndPagingAndItsErrorsPointIntoIt() throws {
        let paths = """
            "/things": { "get": { "operationId": "getThings",
              "parameters": [ { "name": "page", "in": "query", "schema": { "type": "integer" } } ],
              "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Thing" } } } } } } },
              "post": { "operationId": "addThing",
              "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } },
              "responses": { "201": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } } } } }
            """
        let schemas = "\"Thing\": { \"type\": \"object\", \"required\": [\"id\"], \"properties\": { \"id\": { \"type\": \"string\" } } }"
        let document = Support.document(paths: paths, schemas: schemas)
        let overlay = """
            {
              "openapi": "api.json",
              "defaults": { "retry": { "max": 4 } },
              "operations": {
                "getThings": { "paging": { "page": "page" } },
                "addThing": { "retry": { "max": 1 } }
              }
            }
            """
        let output = Support.generate(["Things.cachegen.json": overlay, "api.json": document], main: "Things.cachegen.json")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains("retry: RetryRule(max: 4)"))
        #expect(source.contains("retry: RetryRule(max: 1)"))

        let wrong = overlay.replacingOccurrences(of: "{ \"page\": \"page\" }", with: "{ \"page\": \"pgae\" }")
            .replacingOccurrences(of: "{ \"max\": 1 }", with: "{ \"max\": -1 }")
        let failed = Support.generate(["Things.cachegen.json": wrong, "api.json": document], main: "Things.cachegen.json")
        #expect(
            Support.messages(failed) == [
                #"Things.cachegen.json:5:40: error: "paging" names "pgae", which is not a query parameter of "getThings"; did you mean "page"?"#,
                #"Things.cachegen.json:6:37: error: "max" must be a whole number from 0 to 10; found -1"#,
            ])
    }
}

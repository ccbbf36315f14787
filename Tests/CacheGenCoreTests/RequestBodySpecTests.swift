import CacheGenCore
import Foundation
import Testing

/// `"body"` as an object: how a body is sent (JSON, a form, multipart parts, bytes, text),
/// with the exact messages for what is wrong in it.
@Suite struct RequestBodySpecTests {
    static let models = #"""
        "models": {
          "Charge": { "properties": { "amount": "int", "card": "Card", "tags": "[string]?" } },
          "Card": { "properties": { "number": "string" } },
          "Upload": { "properties": { "file": "file", "purpose": "string" } },
          "Kind": { "enum": ["a"] }
        },
        """#

    /// Every kind of body, as the generated request builder attaches it.
    @Test func everyEncodingGeneratesItsSetter() throws {
        let spec = """
            {
              "version": 1,
              \(Self.models)
              "repositories": { "Payments": { "endpoints": {
                "charge": { "method": "POST", "path": "/charges", "body": { "type": "Charge", "encoding": "form", "fields": { "tags": { "style": "pipeDelimited", "explode": false } } } },
                "upload": { "method": "POST", "path": "/files", "body": { "type": "Upload", "encoding": "multipart", "fields": { "purpose": { "contentType": "text/plain" } } } },
                "image": { "method": "PUT", "path": "/image", "body": { "type": "data", "encoding": "binary", "contentType": "image/png" } },
                "note": { "method": "PUT", "path": "/note", "body": { "type": "string", "encoding": "text" } },
                "remove": { "method": "DELETE", "path": "/charges", "body": "Charge" }
              } } }
            }
            """
        #expect(diagnostics(spec) == [])
        let output = Generator.generate(Data(spec.utf8), path: "Payments.cachegen.json")
        let source = try #require(output.source)
        #expect(source.contains(#"request.setFormBody(body, fields: [BodyField("tags", style: .pipeDelimited, explode: false)], isKey: false)"#))
        #expect(source.contains(#"request.setMultipartBody(body, fields: [BodyField("purpose", contentType: "text/plain")], isKey: false)"#))
        #expect(source.contains(#"request.setDataBody(body, contentType: "image/png", isKey: false)"#))
        #expect(source.contains(#"request.setTextBody(body, contentType: "text/plain", isKey: false)"#))
        #expect(source.contains(#"EndpointRequest(method: "DELETE", path: "/charges")"#))
        #expect(source.contains("public var file: MultipartFile"))
        #expect(source.contains("func image(body: Data) async throws"))
    }

    /// Structural mistakes in a body object, located, with "did you mean".
    @Test func malformedBodiesAreLocated() {
        let spec = """
            {
              "version": 1,
              \(Self.models)
              "repositories": { "Payments": { "endpoints": {
                "a": { "method": "POST", "path": "/a", "body": { "type": "Charge", "encodng": "form" } },
                "b": { "method": "POST", "path": "/b", "body": { "encoding": "form" } },
                "c": { "method": "POST", "path": "/c", "body": { "type": "Charge", "encoding": "xml" } },
                "d": { "method": "POST", "path": "/d", "body": { "type": "Charge", "encoding": "form", "fields": { "tags": { "style": "matrix", "explode": "no", "contenType": "x" } } } }
              } } }
            }
            """
        #expect(
            diagnostics(spec) == [
                #"spec.json:10:72: error: unknown key "encodng" in "body"; did you mean "encoding"?"#,
                #"spec.json:11:52: error: "body" needs a "type", such as "NewAccount""#,
                #"spec.json:12:84: error: "encoding" cannot be "xml"; valid values are "json", "form", "multipart", "binary", "text""#,
                #"spec.json:13:123: error: "style" cannot be "matrix"; valid values are "form", "spaceDelimited", "pipeDelimited", "deepObject""#,
                #"spec.json:13:144: error: "explode" must be true or false; found a string"#,
                #"spec.json:13:150: error: unknown key "contenType" in field "tags"; did you mean "contentType"?"#,
            ])
    }

    /// A body's type must fit its encoding; `contentType` and `fields` only where they mean something.
    @Test func typesThatDoNotFitTheEncoding() {
        let spec = """
            {
              "version": 1,
              \(Self.models)
              "repositories": { "Payments": { "endpoints": {
                "a": { "method": "POST", "path": "/a", "body": { "type": "[Charge]", "encoding": "form" } },
                "b": { "method": "POST", "path": "/b", "body": { "type": "Kind", "encoding": "multipart" } },
                "c": { "method": "POST", "path": "/c", "body": { "type": "string", "encoding": "binary" } },
                "d": { "method": "POST", "path": "/d", "body": { "type": "data", "encoding": "text" } },
                "e": { "method": "POST", "path": "/e", "body": { "type": "Charge", "encoding": "form", "contentType": "text/plain" } },
                "f": { "method": "POST", "path": "/f", "body": { "type": "Charge", "fields": { "tags": { "explode": false } } } },
                "g": { "method": "POST", "path": "/g", "body": { "type": "Charge", "encoding": "form", "fields": { "tag": { "explode": false } } } },
                "h": { "method": "GET", "path": "/h", "body": { "type": "Charge", "encoding": "form" } }
              } } }
            }
            """
        #expect(
            diagnostics(spec) == [
                #"spec.json:10:62: error: the form body of endpoint "a" has type [Charge]; a form body is an object model"#,
                #"spec.json:11:62: error: the multipart body of endpoint "b" has type Kind; a multipart body is an object model"#,
                #"spec.json:12:62: error: the binary body of endpoint "c" has type string; a binary body has type "data""#,
                #"spec.json:13:62: error: the text body of endpoint "d" has type data; a text body has type "string""#,
                #"spec.json:14:107: error: "contentType" of the body of endpoint "e" applies to binary and text bodies only; a form body is sent as application/x-www-form-urlencoded"#,
                #"spec.json:15:84: error: "fields" of the body of endpoint "f" apply to form and multipart bodies only"#,
                #"spec.json:16:104: error: field "tag" of the body of endpoint "g" is not a property of Charge; did you mean "tags"?"#,
                #"spec.json:17:61: error: GET endpoint "h" cannot have a body; send it as query items"#,
            ])
    }

    /// Bytes and files travel in bodies only, never as text in a parameter.
    @Test func bytesAndFilesAreNotParameters() {
        let spec = #"""
            {
              "version": 1,
              "repositories": { "R": { "endpoints": {
                "a": { "method": "POST", "path": "/a", "query": { "blob": "data", "doc": "file?" } }
              } } }
            }
            """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:4:63: error: query parameter "blob" has type data, which cannot be sent as text; use a scalar, an enum model or an array of them, or send it as JSON text with { "type": …, "style": "json" }"#,
                #"spec.json:4:78: error: query parameter "doc" has type file?, which cannot be sent as text; use a scalar, an enum model or an array of them, or send it as JSON text with { "type": …, "style": "json" }"#,
            ])
    }
}

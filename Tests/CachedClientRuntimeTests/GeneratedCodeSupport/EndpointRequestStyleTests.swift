import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// Parameters written as an OpenAPI document's `style` and `explode` say: query arrays one
/// item per value or joined by commas, spaces or `|`; query dictionaries one item per entry,
/// `form` or `deepObject`; path values as `label` or `matrix`; JSON values as `simple` text.
/// The unstyled calls, which every existing client makes, are unchanged.
@Suite struct EndpointRequestStyleTests {
    enum Kind: String, Sendable { case dog, cat }

    @Test func queryArrays() {
        var request = EndpointRequest(method: "GET", path: "/pets")
        request.addQuery("a", ["x", "y z"], style: .repeated, isKey: true)
        request.addQuery("b", [1, 2], style: .commaSeparated, isKey: true)
        request.addQuery("c", ["x", "y"], style: .spaceDelimited, isKey: true)
        request.addQuery("d", ["x", "y"], style: .pipeDelimited, isKey: false)
        request.addQuery("e", [Kind.dog, .cat].map(\.rawValue), style: .repeated, isKey: true)
        request.addQuery("f", [String](), style: .repeated, isKey: true)
        request.addQuery("g", [String]?.none, style: .commaSeparated, isKey: true)
        #expect(request.encodedQuery == "a=x&a=y%20z&b=1%2C2&c=x%20y&d=x%7Cy&e=dog&e=cat")
        #expect(request.query.filter(\.isKey).map(\.name) == ["a", "a", "b", "c", "e", "e"])
    }

    @Test func theDefaultIsUnchanged() {
        var request = EndpointRequest(method: "GET", path: "/pets")
        request.addQuery("tags", ["dog", "cat"], isKey: true)
        #expect(request.encodedQuery == "tags=dog%2Ccat")
    }

    @Test func pathStyles() {
        var request = EndpointRequest(method: "GET", path: "/pets/{id}/{kind}/{name}")
        request.setPathParameter("id", 7, style: .label)
        request.setPathParameter("kind", Kind.dog, style: .matrix)
        request.setPathParameter("name", "a/b", style: .matrix)
        #expect(request.path == "/pets/.7/;kind=dog/;name=a%2Fb")
    }

    @Test func queryDictionariesOneItemPerEntryInKeyOrder() {
        var request = EndpointRequest(method: "GET", path: "/logs")
        request.addQuery("metadata", ["b": "2", "a": "x y"], style: .deepObject, isKey: true)
        request.addQuery("labels", ["team": 7], style: .form, isKey: false)
        request.addQuery("none", [String: String]?.none, style: .form, isKey: true)
        #expect(request.encodedQuery == "metadata%5Ba%5D=x%20y&metadata%5Bb%5D=2&team=7")
        #expect(request.query.filter(\.isKey).map(\.name) == ["metadata[a]", "metadata[b]"])
    }

    /// A union parameter keeps a value none of its types decodes as `JSONValue`, sent as
    /// OpenAPI's `simple` style writes it.
    @Test func jsonValuesAsText() {
        let values: [JSONValue] = [
            "ubuntu", 42, 2.5, true, nil, .unsignedInteger(18_446_744_073_709_551_615), ["a", 1], ["b": 2, "a": "x"],
        ]
        #expect(values.map(\.requestParameterText) == ["ubuntu", "42", "2.5", "true", "", "18446744073709551615", "a,1", "a,x,b,2"])
        var request = EndpointRequest(method: "GET", path: "/images/{id}")
        request.setPathParameter("id", JSONValue.integer(7))
        #expect(request.path == "/images/7")
    }
}

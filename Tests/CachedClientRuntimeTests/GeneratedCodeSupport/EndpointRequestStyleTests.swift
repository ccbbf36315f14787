import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// Parameters written as an OpenAPI document's `style` and `explode` say: query arrays one
/// item per value or joined by commas, spaces or `|`; path values as `label` or `matrix`.
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
}

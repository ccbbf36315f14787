import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Parameters written as an OpenAPI document's `style` and `explode` say: query arrays one
/// item per value or joined by commas, spaces or `|`; query dictionaries one item per entry,
/// `form` or `deepObject`; path values as `label` or `matrix`; JSON values as `simple` text;
/// any value as JSON text.
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

    struct Filter: Encodable, Sendable {
        var scope: String
        var since: Date?
        var limit: Double?
    }

    /// A value no style writes as text, or one a document serializes as `content:
    /// application/json`: compact JSON with sorted keys, dates as the endpoint's coding writes
    /// them, percent-encoded in the URL; `nil` is not sent.
    @Test func valuesAsJSONText() throws {
        var request = EndpointRequest(method: "GET", path: "/search/{where}")
        let filters = [Filter(scope: "enterprise", since: Date(timeIntervalSince1970: 0)), Filter(scope: "a/b")]
        request.addQuery("mdfilters", json: filters, coding: JSONCoding(dates: .iso8601), isKey: true)
        request.addQuery("none", json: [Filter]?.none, coding: JSONCoding(), isKey: true)
        request.addHeader("X-Filter", json: Filter(scope: "x"), coding: JSONCoding(dates: .secondsSince1970), isKey: false)
        request.setPathParameter("where", json: ["b": 1, "a": 2], coding: JSONCoding())
        #expect(
            request.query.map(\.value) == [#"[{"scope":"enterprise","since":"1970-01-01T00:00:00Z"},{"scope":"a/b"}]"#])
        #expect(
            request.encodedQuery
                == "mdfilters=%5B%7B%22scope%22%3A%22enterprise%22%2C%22since%22%3A%221970-01-01T00%3A00%3A00Z%22%7D%2C%7B%22scope%22%3A%22a%2Fb%22%7D%5D")
        #expect(request.headers.map(\.value) == [#"{"scope":"x"}"#])
        #expect(request.path == "/search/%7B%22a%22%3A2%2C%22b%22%3A1%7D")
        #expect(try request.encodedBody(JSONCoding()) == nil)
    }

    /// A value JSON cannot write fails the call when it is sent, as a body would, never a crash.
    @Test func aValueJSONCannotWriteFailsWhenSent() {
        var request = EndpointRequest(method: "GET", path: "/search")
        request.addQuery("filter", json: Filter(scope: "x", limit: .infinity), coding: JSONCoding(), isKey: true)
        #expect(request.query.isEmpty)
        let endpoint = Endpoint(name: "Search.find", cache: nil)
        #expect {
            try endpoint.encodedBody(of: request)
        } throws: { error in
            guard case CachedClientError.encodingFailed(let name, let reason) = error else { return false }
            return name == "Search.find" && reason.hasPrefix("parameter \"filter\" cannot be written as JSON: ")
        }
    }

    struct Range: Encodable, Sendable {
        var gt: Int
        var lt: Int?
        var at: Date?
    }

    /// Objects in the styles OpenAPI gives them, in key order, `nil` properties left out, dates
    /// as the coding writes them; any JSON the same; a value that is no object as its text.
    @Test func objectStyles() {
        var request = EndpointRequest(method: "GET", path: "/r/{a}/{b}")
        let range = Range(gt: 10, lt: nil, at: Date(timeIntervalSince1970: 0))
        let coding = JSONCoding(dates: .iso8601)
        request.addQuery("range", object: range, style: .joined, coding: coding, isKey: true)
        request.addQuery("range", object: range, style: .form, coding: coding, isKey: true)
        request.addQuery("range", object: range, style: .deepObject, coding: coding, isKey: false)
        request.addQuery("free", object: JSONValue.string("x"), style: .form, coding: coding, isKey: true)
        request.addQuery("none", object: Range?.none, style: .form, coding: coding, isKey: true)
        request.addHeader("X-Range", object: range, style: .pairs, coding: coding, isKey: false)
        request.addHeader("X-Joined", object: ["b": 2, "a": "x y"] as JSONValue, style: .joined, coding: coding, isKey: false)
        request.setPathParameter("a", object: ["gt": 1, "a/b": "c,d"] as JSONValue, style: .pairs, coding: coding)
        request.setPathParameter("b", object: Range(gt: 1, lt: 2), style: .joined, coding: coding)
        #expect(
            request.query.map { "\($0.name)=\($0.value)" } == [
                "range=at,1970-01-01T00:00:00Z,gt,10", "at=1970-01-01T00:00:00Z", "gt=10", "range[at]=1970-01-01T00:00:00Z",
                "range[gt]=10", "free=x",
            ])
        #expect(request.headers.map(\.value) == ["at=1970-01-01T00:00:00Z,gt=10", "a,x y,b,2"])
        #expect(request.path == "/r/a%2Fb=c%2Cd,gt=1/gt,1,lt,2")
    }

    /// Path arrays exploded: `.a.b` (`label`) and `;id=a;id=b` (`matrix`), each value encoded.
    @Test func explodedPathArrays() {
        var request = EndpointRequest(method: "DELETE", path: "/s/{ids}/{tags}")
        request.setPathParameter("ids", exploding: [1, 2], style: .matrix)
        request.setPathParameter("tags", exploding: ["a/b", "c"], style: .label)
        #expect(request.path == "/s/;ids=1;ids=2/.a%2Fb.c")
    }
}

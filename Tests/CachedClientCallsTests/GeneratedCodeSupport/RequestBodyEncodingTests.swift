import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Form and multipart bodies as bytes: the styles `BodyField` names, what is left out,
/// and cache keys that stay the same across multipart boundaries.
@Suite struct RequestBodyEncodingTests {
    struct Filter: Codable, Sendable {
        var ids: [Int]
        var words: [String]
        var range: Range
        var options: Options
        var since: Date
        var limit: Int?
    }

    struct Range: Codable, Sendable {
        var from: Double
        var to: Double
    }

    struct Options: Codable, Sendable {
        var fast: Bool
    }

    static let filter = Filter(
        ids: [1, 2], words: ["a b", "c~d"], range: Range(from: 1.5, to: 3), options: Options(fast: true),
        since: Date(timeIntervalSince1970: 1_700_000_000), limit: nil)

    static func formText(_ fields: [BodyField], coding: JSONCoding = JSONCoding()) throws -> String {
        var request = EndpointRequest(method: "POST", path: "/search")
        request.setFormBody(filter, fields: fields, isKey: false)
        #expect(request.bodyContentType == "application/x-www-form-urlencoded")
        return String(decoding: try #require(try request.encodedBody(coding)), as: UTF8.self)
    }

    @Test func defaultsExplodeArraysAndNestObjects() throws {
        #expect(
            try Self.formText([])
                == "ids=1&ids=2&words=a+b&words=c%7Ed&range%5Bfrom%5D=1.5&range%5Bto%5D=3&options%5Bfast%5D=true&since=2023-11-14T22%3A13%3A20Z")
    }

    @Test func fieldsChooseTheirStyle() throws {
        let fields = [
            BodyField("ids", explode: false), BodyField("words", style: .spaceDelimited), BodyField("range", style: .form),
            BodyField("options", contentType: "application/json"),
        ]
        #expect(
            try Self.formText(fields, coding: JSONCoding(dates: .secondsSince1970))
                == "ids=1%2C2&words=a+b+c%7Ed&from=1.5&to=3&options=%7B%22fast%22%3Atrue%7D&since=1700000000")
        #expect(try Self.formText([BodyField("range", style: .form, explode: false)]).contains("&range=from%2C1.5%2Cto%2C3&"))
    }

    @Test func aMultipartBodyInTheKeyGivesOneDigestWhateverItsBoundary() throws {
        let endpoint = Endpoint(name: "Search.find", cache: nil)
        var first = EndpointRequest(method: "POST", path: "/search")
        first.setMultipartBody(Self.filter, isKey: true)
        var second = EndpointRequest(method: "POST", path: "/search")
        second.setMultipartBody(Self.filter, isKey: true)
        let firstBody = try endpoint.encodedBody(of: first)
        let secondBody = try endpoint.encodedBody(of: second)

        #expect(first.bodyContentType != second.bodyContentType)
        #expect(firstBody != secondBody)
        #expect(try endpoint.bodyDigest(of: first, encoded: firstBody) == endpoint.bodyDigest(of: second, encoded: secondBody))
        #expect(try endpoint.bodyDigest(of: first, encoded: firstBody) != nil)
    }

    @Test func aJSONBodyKeepsItsTypeAndDigest() throws {
        let endpoint = Endpoint(name: "Search.find", cache: nil)
        var request = EndpointRequest(method: "POST", path: "/search")
        request.setJSONBody(Options(fast: true), isKey: true)
        let body = try endpoint.encodedBody(of: request)

        #expect(request.bodyContentType == "application/json")
        #expect(body == Data(#"{"fast":true}"#.utf8))
        #expect(try endpoint.bodyDigest(of: request, encoded: body) == SHA256.hex(of: Data(#"{"fast":true}"#.utf8)))
    }
}

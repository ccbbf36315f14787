import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The key text is a stored format: every file holds it and is compared with it on read,
/// and its digest names the file. These texts and digests are pinned so that a faster way
/// of building them can never make existing entries unreachable.
@Suite("CacheKey")
struct CacheKeyTests {
    @Test func aPlainRequestHasThePinnedTextAndDigest() {
        var request = EndpointRequest(method: "GET", path: "/accounts/{id}")
        request.setPathParameter("id", "42")
        request.addQuery("page", 2, isKey: true)
        request.addQuery("trace", "not-in-the-key", isKey: false)
        let endpoint = Endpoint(
            name: "AccountRepository.getAccount", cache: CacheRule(ttl: 600, maxStale: 604_800),
            shape: "c96b7db890fe6b34")

        let key = CacheKey(
            endpoint: endpoint, request: request, baseURL: URL(string: "https://API.Example.com/v1/")!,
            bodyDigest: nil, partition: "user-1")

        #expect(key.text == [
            "cachegen-key 1",
            "endpoint AccountRepository.getAccount",
            "method GET",
            "base https://api.example.com/v1",
            "path /accounts/42",
            "query page=2",
            "headers ",
            "partition user-1",
            "shape c96b7db890fe6b34",
        ].joined(separator: "\n"))
        #expect(key.digest == "c2aa41f3d5c425605a179bf5fff7df60f3a9200d5bc5dc08bb5ffa7de02d46cb")
        #expect(key.description == "c2aa41f3d5c42560")
        #expect(key.endpoint == "AccountRepository.getAccount")
        #expect(key.partition == "user-1")
        #expect(key.path == "/accounts/42")
    }

    @Test func parametersAreSortedAndEncodedAndTheBodyAndPartitionAreInTheText() {
        struct Query: Encodable, Sendable { var text: String }
        var request = EndpointRequest(method: "post", path: "/search")
        request.addQuery("z", 1, isKey: true)
        request.addQuery("a", "e\u{301}", isKey: true)  // decomposed é: normalised to NFC first
        request.addQuery("q", "a b&c=d", isKey: true)
        request.addQuery("a", "~x", isKey: true)
        request.addQuery("page", 3, isKey: true)
        request.addQuery("ids", [3, 1, 2], isKey: true)
        request.addQuery("a", " ", isKey: true)
        request.addQuery("Page", "x", isKey: true)
        request.addQuery("trace", "t", isKey: false)
        request.addHeader("X-Api-Version", "2", isKey: true)
        request.addHeader("Accept-Language", "de-CH", isKey: true)
        request.addHeader("X-Trace", "t", isKey: false)
        request.setJSONBody(Query(text: "a"), isKey: true)
        let endpoint = Endpoint(name: "SearchRepository.search", cache: CacheRule(ttl: 60, maxStale: 60), shape: "s1")

        let key = CacheKey(
            endpoint: endpoint, request: request, baseURL: URL(string: "https://api.example.com/v1")!,
            bodyDigest: SHA256.hex(of: "test"), partition: "user 1/ü")

        #expect(key.text == [
            "cachegen-key 1",
            "endpoint SearchRepository.search",
            "method POST",
            "base https://api.example.com/v1",
            "path /search",
            "query Page=x&a=%20&a=%C3%A9&a=~x&ids=3%2C1%2C2&page=3&q=a%20b%26c%3Dd&z=1",
            "headers accept-language=de-CH&x-api-version=2",
            "body 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "partition user%201%2F%C3%BC",
            "shape s1",
        ].joined(separator: "\n"))
        #expect(key.digest == "0de3bc6adf522c145875075b64a9a1b86ae59018120a715cf5e1acad54d929a9")
        #expect(key.partition == "user 1/ü")
    }

    @Test func aSharedEntryHasNoPartitionAndAnEncodedPath() {
        var request = EndpointRequest(method: "GET", path: "/files/{name}")
        request.setPathParameter("name", "a b/ü")
        let endpoint = Endpoint(
            name: "FileRepository.getFile", cache: CacheRule(ttl: 60, maxStale: 60, scope: .shared))

        let key = CacheKey(
            endpoint: endpoint, request: request, baseURL: URL(string: "http://localhost:8080")!,
            bodyDigest: SHA256.hex(of: "ignored: the body is not in the key"), partition: "user-1")

        #expect(key.text == [
            "cachegen-key 1",
            "endpoint FileRepository.getFile",
            "method GET",
            "base http://localhost:8080",
            "path /files/a%20b%2F%C3%BC",
            "query ",
            "headers ",
            "partition *shared*",
            "shape ",
        ].joined(separator: "\n"))
        #expect(key.digest == "1d123fe1ebd35f3fc86ccc7b8948be8d848062bdfc4d27a9e94f21e1997c22dc")
        #expect(key.partition == nil)
        #expect(key.path == "/files/a%20b%2F%C3%BC")
    }

    @Test func pathParametersReplaceEveryPlaceholderOfTheirNameOnly() {
        var request = EndpointRequest(method: "GET", path: "/{a}/{ab}/{a}/{b}{a}/{")
        request.setPathParameter("a", "x y")
        request.setPathParameter("ab", "é")
        #expect(request.path == "/x%20y/%C3%A9/x%20y/{b}x%20y/{")
        request.setPathParameter("b", "")
        #expect(request.path == "/x%20y/%C3%A9/x%20y/x%20y/{")
        request.setPathParameter("missing", "1")
        #expect(request.path == "/x%20y/%C3%A9/x%20y/x%20y/{")
    }
}

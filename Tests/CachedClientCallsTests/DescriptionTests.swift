import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// What a developer reads of errors (`localizedDescription`) and of values printed in a log or
/// a failed test, word for word.
@Suite struct DescriptionTests {
    @Test func clientErrorsSayWhatToDo() {
        let cases: [(CachedClientError, String)] = [
            (.notCached(endpoint: "NewsRepository.getHeadlines"),
             "NewsRepository.getHeadlines: nothing cached yet; call with a network policy first."),
            (.httpStatus(404, endpoint: "AccountRepository.getAccount", body: Data()),
             "AccountRepository.getAccount: the server answered with status 404. Check the request's parameters and credentials; a 4xx never falls back to the cache."),
            (.httpStatus(503, endpoint: "AccountRepository.getAccount", body: Data()),
             "AccountRepository.getAccount: the server answered with status 503. The server failed and nothing was stored within maxStale; try again later."),
            (.decodingFailed(endpoint: "A.b", reason: "key 'id' not found"),
             "A.b: the response does not match the spec's type: key 'id' not found Make the spec's response type match what the server sends (an optional for a key it may leave out) and regenerate."),
            (.invalidURL("http://"), "http:// is not a valid URL; check the client's baseURL."),
        ]
        for (error, text) in cases {
            #expect(error.localizedDescription == text)
            #expect(error.recoverySuggestion?.isEmpty == false)
        }
    }

    @Test func storeErrorsNameTheReasonAndTheNextStep() {
        let full = FileCacheStoreError(operation: "write", path: "/c/.tmp-1f", code: ENOSPC)
        #expect(
            full.localizedDescription
                == "FileCacheStore could not write /c/.tmp-1f: No space left on device (errno \(ENOSPC)). Free disk space or give the store a smaller maxBytes; calls keep working from the network meanwhile.")
        let denied = FileCacheStoreError(operation: "open", path: "/c", code: EACCES)
        #expect(denied.recoverySuggestion?.hasPrefix("Give the store a folder this process may write") == true)
    }

    @Test func mockErrorSaysWhichHandlerToSet() {
        #expect(
            MockNotImplemented(endpoint: "AccountRepository.getAccounts").localizedDescription
                == "AccountRepository.getAccounts has no handler in this mock; set it when creating the mock.")
    }

    @Test func requestsAndResponsesPrintWithoutHeaders() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/accounts?page=1"))
        let request = HTTPRequest(method: "POST", url: url, headers: ["Authorization": "Bearer secret"], body: Data(count: 34))
        #expect(request.description == "POST https://api.example.com/v1/accounts?page=1 (34-byte body)")
        #expect(HTTPRequest(method: "GET", url: url).description == "GET https://api.example.com/v1/accounts?page=1")
        let response = HTTPResponse(statusCode: 200, headers: ["Set-Cookie": "s=1"], body: Data(count: 1432))
        #expect(response.description == "200, 1432 bytes")
    }

    @Test func usageReadsLikeASettingsScreen() {
        #expect(CachedClient.Usage(bytes: 0, entries: 0).description == "0 entries, 0 bytes")
        #expect(CachedClient.Usage(bytes: 999, entries: 1).description == "1 entry, 999 bytes")
        #expect(CachedClient.Usage(bytes: 1_449_999, entries: 12).description == "12 entries, 1.4 MB")
        #expect(CachedClient.Usage(bytes: 20_500, entries: 3).description == "3 entries, 20.5 KB")
    }

    @Test func aFileStoreNamesItsFolderAndLimits() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "cachegen-description-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FileCacheStore(directory: folder, maxBytes: 50_000_000, maxAge: 604_800)
        #expect(store.description == "FileCacheStore at \(folder.path) (maxBytes 50000000, maxAge 604800s)")
        let plain = try FileCacheStore(directory: folder)
        #expect(plain.description == "FileCacheStore at \(folder.path)")
    }

    @Test func everyEventKindIsListed() {
        #expect(CacheEvent.Kind.allCases.map(\.rawValue) == [
            "hit", "miss", "stale", "fallback", "store", "evict", "revalidated", "error", "collapsed", "collapseTimeout",
            "retry", "mutationQueued", "mutationSending", "mutationSent", "mutationFailed", "mutationDiscarded",
        ])
    }
}

@testable import CachedClientFileStore
@testable import CachedClientHTTP
import CachedClientRuntime
@testable import CachedClientValues
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// Response-header parsing: the input is header lines (`Name: value`, LF-separated; a
/// repeated name is joined with ", " as field lines are). Invariants:
/// - `Cache-Control`: every delta is finite, in 0...2^31; directive names are non-empty,
///   trimmed and lower-cased; the directives written back (arguments quoted) parse the same;
/// - `Date`, `Expires`, `Last-Modified`: a parsed date lies in years 1...9999 and its
///   IMF-fixdate form parses back to the same instant;
/// - `ResponseCaching`: `no-store` as `Cache-Control` says; freshness recorded exactly when
///   `Cache-Control`, `Expires` or `Age` is present; every number finite and not negative,
///   the initial age at least the time in transit; and that freshness survives the cache
///   file format unchanged (so what the server said is what a relaunch reads);
/// - `ETag`: a 304's validator confirms an entry with the same one, matching is symmetric,
///   and an entry without an ETag is never confirmed by one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHeaders(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var headers: [String: String] = [:]
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon].lowercased()
        var value = line[line.index(after: colon)...]
        while value.first == " " { value.removeFirst() }
        headers[name] = headers[name].map { $0 + ", " + value } ?? String(value)
    }
    let response = HTTPResponse(statusCode: 200, headers: headers)
    let responseTime = Date(timeIntervalSince1970: 1_764_000_000)
    let requestTime = responseTime.addingTimeInterval(-0.5)

    if let value = response.header("Cache-Control") { checkCacheControl(value) }
    for name in ["Date", "Expires", "Last-Modified"] {
        if let value = response.header(name) { checkDate(value, now: responseTime) }
    }
    let caching = ResponseCaching(response, requestTime: requestTime, responseTime: responseTime)
    FuzzCheck.require(
        caching.noStore == CacheControl(response.header("Cache-Control") ?? "").noStore, "ResponseCaching: no-store differs")
    let hasFields = ["Cache-Control", "Expires", "Age"].contains { response.header($0) != nil }
    FuzzCheck.require((caching.freshness != nil) == hasFields, "ResponseCaching: freshness \(String(describing: caching.freshness)) with fields present \(hasFields)")
    if let freshness = caching.freshness { checkFreshness(freshness, minimumAge: 0.5) }

    let stored = ServerFreshness(lifetime: 60, initialAge: 2, mustRevalidate: true, staleIfError: 10)
    let confirmed = ResponseCaching(revalidation: response, stored: stored, requestTime: requestTime, responseTime: responseTime)
    if let freshness = confirmed.freshness { checkFreshness(freshness, minimumAge: 0.5) }

    checkETag(response.header("ETag"), other: response.header("If-None-Match"))
    return 0
}

private func checkCacheControl(_ value: String) {
    let parsed = CacheControl(value)
    for delta in [parsed.maxAge, parsed.staleIfError, parsed.staleWhileRevalidate].compactMap({ $0 }) {
        FuzzCheck.require(
            delta.isFinite && delta >= 0 && delta <= CacheControl.maximumDelta, "CacheControl: delta \(delta) from \(value.debugDescription)")
    }
    let directives = CacheControl.directives(value)
    for (name, _) in directives {
        FuzzCheck.require(
            !name.isEmpty && name == name.lowercased() && name == name.trimmingCharacters(in: .whitespaces)
                && !name.contains(",") && !name.contains("="),
            "CacheControl: directive name \(name.debugDescription) from \(value.debugDescription)")
    }
    // Escaped scalar by scalar: a quote followed by a combining mark is one Character, which
    // `replacingOccurrences(of: "\"", …)` would not see (a finding of this target, in itself).
    let written = directives.map { name, argument in
        guard let argument else { return name }
        var quoted = String.UnicodeScalarView()
        for scalar in argument.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { quoted.append("\\") }
            quoted.append(scalar)
        }
        return name + "=\"" + String(quoted) + "\""
    }.joined(separator: ", ")
    let reread = CacheControl.directives(written)
    FuzzCheck.require(
        reread.count == directives.count && zip(reread, directives).allSatisfy { $0.name == $1.name && $0.argument == $1.argument },
        "CacheControl: \(value.debugDescription) written back as \(written.debugDescription) reads differently")
    FuzzCheck.require(CacheControl(written) == parsed, "CacheControl: \(written.debugDescription) is not \(value.debugDescription)")
}

private func checkDate(_ value: String, now: Date) {
    guard let date = HTTPDate.parse(value, now: now) else { return }
    let seconds = date.timeIntervalSince1970
    // 0001-01-01 and 10000-01-01 in seconds since 1970.
    FuzzCheck.require(
        seconds.isFinite && seconds >= -62_135_596_800 && seconds < 253_402_300_800, "HTTPDate: \(value.debugDescription) is \(seconds)")
    let formatted = HTTPDate.format(date)
    FuzzCheck.require(
        HTTPDate.parse(formatted, now: now) == date, "HTTPDate: \(value.debugDescription) formats as \(formatted), which reads differently")
}

private func checkFreshness(_ freshness: ServerFreshness, minimumAge: Double) {
    for value in [freshness.lifetime, freshness.staleIfError, freshness.staleWhileRevalidate].compactMap({ $0 }) {
        FuzzCheck.require(value.isFinite && value >= 0, "ServerFreshness: \(freshness)")
    }
    FuzzCheck.require(
        freshness.initialAge.isFinite && freshness.initialAge >= minimumAge, "ServerFreshness: initial age in \(freshness)")
    // What the server said survives the file.
    let key = CacheKey(text: "k", endpoint: "e", partition: nil, path: "/")
    let entry = CacheEntry(body: Data(), date: Date(timeIntervalSinceReferenceDate: 0), freshness: freshness)
    guard let bytes = CacheFileFormat.encode(entry, key: key) else { FuzzCheck.fail("encode: nil for \(freshness)") }
    let decoded = bytes.withUnsafeBytes { CacheFileFormat.decode($0, keyText: key.text) }
    guard case .success(let layout) = decoded, layout.freshness == freshness else {
        FuzzCheck.fail("CacheFileFormat: \(freshness) reads back as \(decoded)")
    }
}

private func checkETag(_ etag: String?, other: String?) {
    guard let etag else { return }
    let date = Date(timeIntervalSinceReferenceDate: 0)
    func notModified(_ tag: String) -> HTTPResponse { HTTPResponse(statusCode: 304, headers: ["ETag": tag]) }
    func entry(_ tag: String?) -> CacheEntry { CacheEntry(body: Data(), date: date, etag: tag) }
    FuzzCheck.require(notModified(etag).confirms(entry(etag)), "ETag: \(etag.debugDescription) does not confirm itself")
    FuzzCheck.require(!notModified(etag).confirms(entry(nil)), "ETag: \(etag.debugDescription) confirms an entry without one")
    guard let other else { return }
    FuzzCheck.require(
        notModified(etag).confirms(entry(other)) == notModified(other).confirms(entry(etag)),
        "ETag: matching \(etag.debugDescription) and \(other.debugDescription) is not symmetric")
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzResponseHeaders))

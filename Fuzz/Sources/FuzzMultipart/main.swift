@_spi(Generated) @testable import CachedClientCalls
@_spi(Generated) @testable import CachedClientValues
import CachedClientRuntime
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// The multipart reader (issue 37): the input's first line is the boundary, the rest the body.
/// Invariants:
/// - reading ends in parts or a `MultipartParser.Failure`, never a crash, in linear time;
/// - the parts, written again with a boundary none of them holds, read back the same (names
///   and values of their header fields, unfolded, and their bytes);
/// - decoding them as a model of the usual part types ends in a value or an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
    let boundary = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Data(bytes[min(newline + 1, bytes.endIndex)...])
    guard let parts = try? MultipartParser.parse(body, boundary: boundary) else { return 0 }

    var written = Data()
    let other = freshBoundary(avoiding: parts)
    for part in parts {
        written += Data("--\(other)\r\n".utf8)
        for (name, value) in part.headers { written += Data("\(name): \(value)\r\n".utf8) }
        written += Data("\r\n".utf8) + part.body + Data("\r\n".utf8)
    }
    written += Data("--\(other)--\r\n".utf8)
    do {
        let again = try MultipartParser.parse(written, boundary: other)
        FuzzCheck.require(again == parts, "multipart: \(parts.count) parts read back as \(again.count), or changed")
    } catch {
        FuzzCheck.fail("multipart: parts written again do not read back: \(error)")
    }

    _ = try? Album(from: MultipartDecoder(parts: parts, coding: JSONCoding()))
    return 0
}

/// A boundary that no part's fields or bytes hold.
private func freshBoundary(avoiding parts: [MultipartPart]) -> String {
    var number = 0
    while true {
        let candidate = "fuzz-\(number)"
        let delimiter = Array("--\(candidate)".utf8)
        let taken = parts.contains { part in
            MultipartParser.find(delimiter, in: Array(part.body), from: 0) != nil
                || part.headers.contains { $0.name.contains(candidate) || $0.value.contains(candidate) }
        }
        if !taken { return candidate }
        number += 1
    }
}

/// A model of every kind of part.
private struct Album: Decodable {
    enum Kind: String, Decodable { case photo, video }
    struct Meta: Decodable { var width: Int }
    var title: String
    var count: Int?
    var kind: Kind?
    var taken: Date?
    var cover: MultipartFile?
    var thumbnail: Data?
    var meta: Meta?
    var tags: [String]?
    var sizes: [Int]?
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzMultipart))

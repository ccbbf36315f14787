import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The multipart reader on well-formed bodies, on every truncation of one, and on hostile
/// bytes: parts come back exactly, or a `Failure` says which part went wrong; never a crash
/// or a hang.
@Suite struct MultipartParserTests {
    static let boundary = "b0undary"

    /// A body with a preamble, a field, a file with its own header fields, a part without
    /// header fields, bytes that hold CRLF and a near-delimiter, and an epilogue.
    static let body = Data(
        ("preamble to skip\r\n"
            + "--b0undary\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n"
            + "\r\n"
            + "Hello\r\n"
            + "--b0undary  \r\n"
            + "Content-Disposition: form-data; name=\"photo\"; filename=\"a \\\"b\\\".png\"\r\n"
            + "Content-Type: image/png\r\n"
            + "X-Rate-Limit: 10\r\n"
            + "X-Folded: one\r\n two\r\n"
            + "\r\n"
            + "\u{0}\u{1}\r\n--b0undaryX not a delimiter\r\n"
            + "--b0undary\r\n"
            + "\r\n"
            + "nameless\r\n"
            + "--b0undary--\r\n"
            + "epilogue").utf8)

    @Test func aWellFormedBodyGivesEveryPartWithItsFields() throws {
        let parts = try MultipartParser.parse(Self.body, boundary: Self.boundary)
        #expect(parts.count == 3)
        #expect(parts[0].name == "title")
        #expect(parts[0].filename == nil)
        #expect(parts[0].body == Data("Hello".utf8))
        #expect(parts[1].name == "photo")
        #expect(parts[1].filename == "a \"b\".png")
        #expect(parts[1].contentType == "image/png")
        #expect(parts[1].otherHeaders == ["X-Rate-Limit": "10", "X-Folded": "one two"])
        #expect(parts[1].body == Data("\u{0}\u{1}\r\n--b0undaryX not a delimiter".utf8))
        #expect(parts[2].headers.isEmpty)
        #expect(parts[2].name == nil)
        #expect(parts[2].body == Data("nameless".utf8))
    }

    @Test func aBodyWithoutPreambleAndAnEmptyBody() throws {
        #expect(try MultipartParser.parse(Data("--b\r\n\r\nx\r\n--b--".utf8), boundary: "b").map(\.body) == [Data("x".utf8)])
        #expect(try MultipartParser.parse(Data("--b--\r\n".utf8), boundary: "b").isEmpty)
    }

    @Test func theBoundaryAndTheDispositionParametersAreRead() {
        #expect(MultipartParser.boundary(of: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartParser.boundary(of: "multipart/mixed; charset=utf-8; Boundary=\"a;b c\"") == "a;b c")
        #expect(MultipartParser.boundary(of: "multipart/form-data") == nil)
        #expect(MultipartParser.boundary(of: nil) == nil)
        let parameters = MultipartParser.parameters(of: "form-data; name=\"a\\\\b\"; filename*=UTF-8''na%C3%AFve.txt")
        #expect(parameters == ["name": "a\\b", "filename*": "naïve.txt"])
    }

    @Test func whatTheRequestWriterWritesReadsBackPartByPart() throws {
        struct Upload: Encodable {
            var title: String
            var tags: [String]
            var meta: [String: Int]
            var photo: MultipartFile
        }
        let photo = MultipartFile(
            data: Data([0, 13, 10, 45, 45, 255]), filename: "p\"1.png", contentType: "image/png",
            headers: ["X-Rate-Limit": "10", "X-Evil": "a\r\nInjected: yes"])
        let upload = Upload(title: "Hi", tags: ["a", "b"], meta: ["n": 1], photo: photo)
        let body = FormBody.multipart(try FormValue.of(upload, coding: JSONCoding()), fields: [], boundary: "xyz")
        let parts = try MultipartParser.parse(body, boundary: "xyz")
        #expect(parts.map(\.name) == ["title", "tags", "tags", "meta", "photo"])
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) }.prefix(4) == ["Hi", "a", "b", "{\"n\":1}"])
        #expect(parts[3].contentType == "application/json")
        #expect(parts[4].body == photo.data)
        #expect(parts[4].filename == "p%221.png")
        #expect(parts[4].otherHeaders == ["X-Evil": "a  Injected: yes", "X-Rate-Limit": "10"])
    }

    /// `MultipartValue` parts (text, a date, JSON, repeated) write their header fields, sorted,
    /// on one line each, and read back into the same model.
    @Test func aMultipartValueWritesAndReadsItsPartsHeaderFields() throws {
        struct Note: Codable, Equatable {
            var text: MultipartValue<String>
            var at: MultipartValue<Date>
            var meta: MultipartValue<[String: Int]>?
            var labels: [MultipartValue<String>]
        }
        let note = Note(
            text: MultipartValue("Hi", headers: ["X-Log-Type": "structured", "X-Evil": "a\r\nInjected: yes", "Content-Length": "99"]),
            at: MultipartValue(Date(timeIntervalSince1970: 0), headers: ["X-Zone": "UTC"]), meta: MultipartValue(["n": 1], headers: ["X-A": "1"]),
            labels: [MultipartValue("a", headers: ["X-Order": "1"]), MultipartValue("b")])
        let coding = JSONCoding()
        let body = FormBody.multipart(try FormValue.of(note, coding: coding), fields: [], boundary: "xyz")
        let parts = try MultipartParser.parse(body, boundary: "xyz")
        #expect(parts.map(\.name) == ["text", "at", "meta", "labels", "labels"])
        #expect(parts[0].headers.map(\.name) == ["Content-Disposition", "X-Evil", "X-Log-Type"])
        #expect(parts[0].otherHeaders == ["X-Evil": "a  Injected: yes", "X-Log-Type": "structured"])
        #expect(String(decoding: parts[1].body, as: UTF8.self) == "1970-01-01T00:00:00Z")
        #expect(parts[2].contentType == "application/json")
        let read = try Note(from: MultipartDecoder(parts: parts, coding: coding))
        var expected = note
        expected.text.headers = ["X-Evil": "a  Injected: yes", "X-Log-Type": "structured"]
        #expect(read == expected)
        #expect(read.labels[0].header("x-order") == "1")
        // In JSON it is its value alone.
        let json = try coding.makeEncoder().encode(note.text)
        #expect(String(decoding: json, as: UTF8.self) == "\"Hi\"")
        #expect(try coding.makeDecoder().decode(MultipartValue<String>.self, from: json) == MultipartValue("Hi"))
    }

    @Test func everyTruncationIsAFailureNamingWhere() throws {
        let whole = Array(Self.body.prefix(Self.body.count - "\r\nepilogue".count))
        for length in 0..<whole.count - 1 {
            #expect(throws: MultipartParser.Failure.self, "a body cut to \(length) bytes") {
                _ = try MultipartParser.parse(Data(whole.prefix(length)), boundary: Self.boundary)
            }
        }
        #expect(try MultipartParser.parse(Data(whole), boundary: Self.boundary).count == 3)
    }

    @Test(arguments: [
        ("nothing here", "the body has no delimiter \"--b\": it is not multipart, or its boundary is another"),
        ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx", "part 1 ends without a delimiter after it (the body is truncated)"),
        ("--b\r\nContent-Disposition: form-data", "part 1 ends before its header fields do (the body is truncated)"),
        ("--b\r\nno colon\r\n\r\nx\r\n--b--", "part 1 has a header line that is not a field: \"no colon\""),
        ("--b\r\n folded\r\n\r\nx\r\n--b--", "part 1 starts its header fields with a continuation line"),
        ("--b\r\n\r\nx\r\n--b", "the body ends after a delimiter, before part 2 or the closing \"--\" (it is truncated)"),
        ("--b\r\n\r\nx\r\n--b\r", "the body ends after a delimiter, before part 2 or the closing \"--\" (it is truncated)"),
        ("--b x\r\n\r\n", "the body has no delimiter \"--b\": it is not multipart, or its boundary is another"),
    ])
    func aGarbledBodySaysWhatIsWrong(_ input: String, _ reason: String) {
        #expect(throws: MultipartParser.Failure(reason: reason)) { _ = try MultipartParser.parse(Data(input.utf8), boundary: "b") }
    }

    /// The multipart fuzz target's finding (Fuzz/, `FuzzRegressions/multipart-folding-onto-an-empty-value`):
    /// a field continued from an empty value (`X-FoldeETag: ` then ` two…`) read as " two…",
    /// with a space its one-line form does not have, so the parts written again read back
    /// otherwise. A continuation now joins by one space, none around an empty piece.
    @Test func aFoldedFieldReadsAsItsOneLineForm() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions")
        let input = try Data(contentsOf: folder.appendingPathComponent("multipart-folding-onto-an-empty-value"))
        let newline = try #require(input.firstIndex(of: 10))
        let boundary = String(decoding: input[..<newline], as: UTF8.self)
        let parts = try MultipartParser.parse(input[(newline + 1)...], boundary: boundary)
        let field = try #require(parts.first?.headers.first { $0.name == "X-FoldeETag" })
        #expect(field.value == "two\u{0}-Aa$B03x")

        let folded = Data("--b\r\nA:\r\n  one \r\n\t\r\n two\r\n\r\nx\r\n--b--".utf8)
        #expect(try MultipartParser.parse(folded, boundary: "b").first?.header("A") == "one two")
    }

    @Test func aBoundaryThatCannotBeOneIsRefused() {
        #expect(throws: MultipartParser.Failure.self) { _ = try MultipartParser.parse(Data(), boundary: "") }
        #expect(throws: MultipartParser.Failure.self) { _ = try MultipartParser.parse(Data(), boundary: "a\r\nb") }
    }

    /// Mutations of a valid body (bytes flipped, inserted, deleted; CR, LF, dashes and pieces
    /// of the boundary spliced in; cut anywhere), read and decoded: each ends in parts or a
    /// failure. A crash fails the run; a hang fails the time bound.
    @Test func hostileBytesEndInPartsOrAFailure() throws {
        var random = SplitMix64(seed: 0x6d75_6c74_6970_6172)
        let seed = Array(Self.body)
        let pieces: [[UInt8]] = [[13], [10], [13, 10], Array("--".utf8), Array("--b0undary".utf8), Array("\r\n--b0undary".utf8), [0], [255], Array(":".utf8), Array(" ".utf8), Array("\"".utf8)]
        let start = ContinuousClock.now
        var failures = 0
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(bytes.count + 1))
                switch random.next() % 5 {
                case 0 where index < bytes.count: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))], at: index)
                case 2 where index < bytes.count: bytes.remove(at: index)
                case 3: bytes = Array(bytes.prefix(index))
                default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                }
            }
            do {
                let parts = try MultipartParser.parse(Data(bytes), boundary: Self.boundary)
                _ = try? Upload(from: MultipartDecoder(parts: parts, coding: JSONCoding()))
            } catch {
                failures += 1
            }
        }
        #expect(failures > 100, "the mutations reach the failure paths")
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    /// Bodies built to be slow: a megabyte of near-delimiters, of header lines, of parts.
    @Test func largeHostileBodiesEndInBoundedTime() throws {
        let start = ContinuousClock.now
        let nearDelimiters = Data(("--b0undary\r\n\r\n" + String(repeating: "\r\n--b0undar", count: 100_000)).utf8)
        #expect(throws: MultipartParser.Failure.self) { _ = try MultipartParser.parse(nearDelimiters, boundary: Self.boundary) }
        let headers = Data(("--b0undary\r\n" + String(repeating: "X-A: b\r\n", count: 100_000)).utf8)
        #expect(throws: MultipartParser.Failure.self) { _ = try MultipartParser.parse(headers, boundary: Self.boundary) }
        let parts = Data((String(repeating: "--b0undary\r\n\r\nx\r\n", count: 50_000) + "--b0undary--").utf8)
        #expect(try MultipartParser.parse(parts, boundary: Self.boundary).count == 50_000)
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    /// What the fuzz loop decodes the parts as.
    struct Upload: Decodable {
        var title: String
        var photo: MultipartFile?
        var tags: [String]?
    }
}

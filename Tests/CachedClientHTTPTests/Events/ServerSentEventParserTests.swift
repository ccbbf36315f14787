import Foundation
import Testing

import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The WHATWG event stream rules, fed in chunks split at every byte as well as whole.
@Suite struct ServerSentEventParserTests {
    typealias Event = ServerSentEventParser.Event

    /// The events of `text` read whole, after checking that reading it one byte at a time gives the same.
    static func events(_ text: String, parser: inout ServerSentEventParser) -> [Event] {
        var split = parser
        let bytes = Array(text.utf8)
        let byByte = bytes.flatMap { split.feed([$0]) }
        let whole = parser.feed(bytes)
        #expect(byByte == whole, "split at every byte")
        #expect(split.lastEventID == parser.lastEventID)
        return whole
    }

    static func events(_ text: String) -> [Event] {
        var parser = ServerSentEventParser()
        return events(text, parser: &parser)
    }

    @Test func linesEndInCRLFOrCRLF() {
        let expected = [Event(data: "a"), Event(data: "b"), Event(data: "c")]
        #expect(Self.events("data: a\n\ndata: b\r\rdata: c\r\n\r\n") == expected)
    }

    @Test func aCRLFSplitBetweenChunksEndsOneLine() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("data: a\r".utf8)) == [])
        #expect(parser.feed(Array("\n\r".utf8)) == [Event(data: "a")])
        // The LF after the CR that ended the empty line belongs to it, not another line.
        #expect(parser.feed(Array("\ndata: b\n\n".utf8)) == [Event(data: "b")])
    }

    @Test func commentsAreIgnoredAndDataLinesAreJoinedWithLF() {
        let text = ": keep-alive\ndata: {\"a\": 1,\n:another\ndata:\"b\": 2}\ndata\n\n"
        #expect(Self.events(text) == [Event(data: "{\"a\": 1,\n\"b\": 2}\n")])
    }

    @Test func oneLeadingSpaceIsRemovedFromAValue() {
        #expect(Self.events("data:  two\n\ndata:none\n\n") == [Event(data: " two"), Event(data: "none")])
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() {
        #expect(Self.events("\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n") == [Event(data: "a")])
    }

    @Test func eventTypeIdAndRetry() {
        var parser = ServerSentEventParser()
        let text = "event: add\nid: 1\nretry: 2500\ndata: x\n\ndata: y\n\nid\ndata: z\n\n"
        #expect(
            Self.events(text, parser: &parser) == [
                Event(event: "add", data: "x", id: "1", retry: 2500), Event(data: "y", id: "1"), Event(data: "z"),
            ])
        #expect(parser.lastEventID == "")
        #expect(parser.reconnectionTime == 2500)
    }

    @Test func anIdWithNULAndARetryThatIsNotDigitsAreIgnored() {
        var parser = ServerSentEventParser()
        #expect(Self.events("id: 4\n\nid: 5\u{0}\nretry: 1s\nretry: -3\ndata: a\n\n", parser: &parser) == [Event(data: "a", id: "4")])
        #expect(parser.reconnectionTime == nil)
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIdCounts() {
        var parser = ServerSentEventParser()
        #expect(Self.events("event: ping\n\nid: 9\n\n", parser: &parser) == [])
        #expect(parser.lastEventID == "9")
    }

    @Test func anEventTheStreamEndsInsideIsDroppedAndItsIdIsNotTheLastOne() {
        var parser = ServerSentEventParser()
        #expect(Self.events("id: 1\ndata: a\n\nid: 2\ndata: b", parser: &parser) == [Event(data: "a", id: "1")])
        parser.reset()
        #expect(parser.lastEventID == "1")
        #expect(parser.feed(Array("data: c\n\n".utf8)) == [Event(data: "c", id: "1")])
    }

    @Test func unknownFieldsAreIgnoredAndTextThatIsNotUTF8IsReplaced() {
        #expect(Self.events("foo: bar\ndata: \u{E9}\n\n") == [Event(data: "\u{E9}")])
        var parser = ServerSentEventParser()
        #expect(parser.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0x0A, 0x0A]) == [Event(data: "\u{FFFD}")])
    }
}

/// JSON Lines and JSON text sequences, split anywhere.
@Suite struct JSONRecordSplitterTests {
    static func records(_ text: String, _ splitter: JSONRecordSplitter) -> [String] {
        var whole = splitter
        var split = splitter
        let bytes = Array(text.utf8)
        let records = whole.feed(bytes) + [whole.finish()].compactMap { $0 }
        let byByte = bytes.flatMap { split.feed([$0]) } + [split.finish()].compactMap { $0 }
        #expect(records == byByte)
        return records.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func jsonLinesWithCRLFBlankLinesAndNoFinalLineBreak() {
        #expect(Self.records("{\"a\":1}\r\n\n  \n[2]\n3", .lines) == ["{\"a\":1}", "[2]", "3"])
    }

    @Test func jsonTextSequencesAfterRecordSeparators() {
        #expect(Self.records("\u{1E}{\"a\":\n1}\n\u{1E}\u{1E}[]\n", .sequence) == ["{\"a\":\n1}", "[]"])
    }
}

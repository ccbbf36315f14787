import CachedClientRuntime
import Foundation
import Testing

// The code of EventStreams.md.

/// Everything a finished stream sent: the loop ends when the response does.
func transcript(of run: EventStream<String>) async throws -> String {
    var text = ""
    for try await event in run { text += event.value }  // ends after the last event
    return text
}

/// The next `count` events of a channel, which does not end by itself.
func nextEvents<Value: Sendable>(_ count: Int, of channel: EventStream<Value>) async throws -> [Value] {
    var values: [Value] = []
    for try await event in channel {
        values.append(event.value)
        if values.count == count { break }  // leaving the loop closes the connection
    }
    return values
}

@Suite struct EventStreamsTests {
    @Test func aFinishedStreamIsReadToItsEnd() async throws {
        #expect(try await transcript(of: EventStream(values: ["Hel", "lo"])) == "Hello")
    }

    @Test func aChannelIsReadForAsLongAsTheAppWants() async throws {
        #expect(try await nextEvents(2, of: EventStream(values: [1, 2, 3])) == [1, 2])
    }
}

#if canImport(Observation)
/// A chat answer as it streams in: each token appended; once finished, kept for offline.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func answer(to prompt: String, tokens: @escaping @Sendable (String) -> EventStream<String>) -> StreamedQuery<String, String> {
    let query = StreamedQuery(initial: "", reduce: { $0 += $1 }) { tokens(prompt) }
    query.start()
    return query
}

/// What a chat bubble shows: a cursor while the answer streams, the date of an answer kept
/// from before when offline, and a mark on an answer cut short.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
func bubble(_ query: StreamedQuery<String, String>) -> String {
    if query.isStreaming { return query.value + " ▍" }
    if let date = query.date { return query.value + " (saved \(date.formatted(.iso8601)))" }
    if query.error != nil { return query.value + " (interrupted)" }
    return query.value
}

@Suite @MainActor struct StreamedQueryDocumentationTests {
    @Test func anAnswerGrowsThenShowsWithoutTheCursor() async {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        let query = answer(to: "Hi") { _ in EventStream(values: ["Hel", "lo"]) }
        #expect(bubble(query) == " ▍")
        await query.waitForStream()
        #expect(bubble(query) == "Hello")
    }

    @Test func anAnswerCutShortIsMarked() async {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        struct Cut: Error {}
        let query = answer(to: "Hi") { _ in
            EventStream {
                AsyncThrowingStream { continuation in
                    continuation.yield(StreamEvent("Hel"))
                    continuation.finish(throwing: Cut())
                }
            }
        }
        await query.waitForStream()
        #expect(bubble(query) == "Hel (interrupted)")
    }
}
#endif

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

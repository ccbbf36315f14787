/// Reads a `text/event-stream` body (Server-Sent Events) as the WHATWG HTML standard's
/// "event stream interpretation" says, from chunks split anywhere: lines end in CR, LF or
/// CRLF (a CRLF split between two chunks counts once), one leading byte-order mark is
/// skipped, lines starting with `:` are comments, `data` lines are joined with LF, an event
/// is dispatched at an empty line unless it has no data, `id` persists until changed (one
/// holding NUL is ignored) and becomes the last event ID at the empty line that ends its
/// block, `retry` takes digits only, and an event the stream ends inside is dropped.
package struct ServerSentEventParser: Sendable {
    /// One dispatched event, its data as text.
    package struct Event: Sendable, Equatable {
        /// The `event` field, or `nil` when the server named none (a `message`).
        package var event: String?
        /// The `data` lines joined with LF.
        package var data: String
        /// The last event ID when the event was dispatched, or `nil` while there is none.
        package var id: String?
        /// The `retry` field sent with this event, in milliseconds.
        package var retry: Int?

        /// The memberwise initializer, for the package's other modules.
        package init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
            self.event = event
            self.data = data
            self.id = id
            self.retry = retry
        }
    }

    /// The last event ID, sent back as `Last-Event-ID` when the stream is resumed.
    package private(set) var lastEventID = ""
    /// The `id` read since the last dispatch, which becomes `lastEventID` at the next one.
    private var idBuffer = ""
    /// The last `retry` the server sent, in milliseconds: how long to wait before resuming.
    package private(set) var reconnectionTime: Int?

    private var line: [UInt8] = []
    private var afterCR = false
    private var isFirstLine = true
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var retry: Int?

    /// Reads the next chunk; returns the events it completes.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    /// Forgets what the ended stream left unfinished, keeping the last event ID and the
    /// reconnection time for the next connection.
    package mutating func reset() {
        line = []
        afterCR = false
        isFirstLine = true
        data = ""
        hasData = false
        eventType = ""
        retry = nil
        idBuffer = lastEventID
    }

    /// Handles the line read so far; returns an event when it was an empty line that dispatched one.
    private mutating func endLine() -> Event? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if isFirstLine {
            isFirstLine = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let field: String
        var value: ArraySlice<UInt8> = []
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            value = bytes[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = String(decoding: bytes, as: UTF8.self)
        }
        switch field {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            data += String(decoding: value, as: UTF8.self)
            data += "\n"
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        default:
            break
        }
        return nil
    }

    /// Dispatches the event read since the last empty line, if it has data.
    private mutating func dispatch() -> Event? {
        lastEventID = idBuffer
        defer {
            data = ""
            hasData = false
            eventType = ""
            retry = nil
        }
        guard hasData else { return nil }
        if data.hasSuffix("\n") { data.removeLast() }
        return Event(
            event: eventType.isEmpty ? nil : eventType, data: data, id: lastEventID.isEmpty ? nil : lastEventID, retry: retry)
    }

    /// The memberwise initializer, for the package's other modules.
    package init(reconnectionTime: Int? = nil, line: [UInt8] = [], retry: Int? = nil) {
        self.reconnectionTime = reconnectionTime
        self.line = line
        self.retry = retry
    }
}

import Foundation

/// Writes UTF-8 into a buffer whose size was worked out beforehand.
package struct UTF8Writer {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    package private(set) var count = 0

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Copies the text's UTF-8 bytes; one `memcpy` for the native strings this is given.
    package mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { copy($0) }
    }

    /// Copies a static string's bytes.
    package mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { copy($0) }
    }

    private mutating func copy(_ source: UnsafeBufferPointer<UInt8>) {
        precondition(count + source.count <= buffer.count, "UTF8Writer: the buffer is too small")
        guard let base = source.baseAddress, let target = buffer.baseAddress else { return }
        (target + count).update(from: base, count: source.count)
        count += source.count
    }

    /// Writes one byte, such as an ASCII separator.
    package mutating func write(_ byte: UInt8) {
        precondition(count < buffer.count, "UTF8Writer: the buffer is too small")
        buffer[count] = byte
        count += 1
    }
}

import Foundation

/// Writes UTF-8 into a buffer whose size was worked out beforehand.
///
/// Inlinable: keys and file paths are written with it in other layers (targets), a few calls
/// per byte separator, on every cache hit.
package struct UTF8Writer {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    @usableFromInline package private(set) var count = 0

    @inlinable package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Copies the text's UTF-8 bytes; one `memcpy` for the native strings this is given.
    @inlinable package mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { copy($0) }
    }

    /// Copies a static string's bytes.
    @inlinable package mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { copy($0) }
    }

    @usableFromInline mutating func copy(_ source: UnsafeBufferPointer<UInt8>) {
        precondition(count + source.count <= buffer.count, "UTF8Writer: the buffer is too small")
        guard let base = source.baseAddress, let target = buffer.baseAddress else { return }
        (target + count).update(from: base, count: source.count)
        count += source.count
    }

    /// Writes one byte, such as an ASCII separator.
    @inlinable package mutating func write(_ byte: UInt8) {
        precondition(count < buffer.count, "UTF8Writer: the buffer is too small")
        buffer[count] = byte
        count += 1
    }
}

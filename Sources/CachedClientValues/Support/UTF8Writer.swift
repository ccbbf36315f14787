import Foundation

/// Writes UTF-8 into a buffer whose size was worked out beforehand.
///
/// Inlinable: keys and file paths are written with it in other layers (targets), a few calls
/// per byte separator, on every cache hit. SPI rather than `package`, for the reason `Locked` gives.
@_spi(RuntimeLayers)
public struct UTF8Writer {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline var written = 0
    /// The bytes written so far.
    @_spi(RuntimeLayers) @inlinable public var count: Int { written }

    /// A writer that fills `buffer` from its start; writing past its end is a precondition failure.
    @_spi(RuntimeLayers) @inlinable public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Copies the text's UTF-8 bytes; one `memcpy` for the native strings this is given.
    @_spi(RuntimeLayers) @inlinable public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { copy($0) }
    }

    /// Copies a static string's bytes.
    @_spi(RuntimeLayers) @inlinable public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { copy($0) }
    }

    @inlinable mutating func copy(_ source: UnsafeBufferPointer<UInt8>) {
        precondition(written + source.count <= buffer.count, "UTF8Writer: the buffer is too small")
        guard let base = source.baseAddress, let target = buffer.baseAddress else { return }
        (target + written).update(from: base, count: source.count)
        written += source.count
    }

    /// Writes one byte, such as an ASCII separator.
    @_spi(RuntimeLayers) @inlinable public mutating func write(_ byte: UInt8) {
        precondition(written < buffer.count, "UTF8Writer: the buffer is too small")
        buffer[written] = byte
        written += 1
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a target reports a broken invariant: the message on standard error, then a trap,
/// which libFuzzer records as a crash and saves the input as an artifact.
public enum FuzzCheck {
    /// Traps with `message` unless `condition` holds.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        guard !condition else { return }
        fail(message(), file: file, line: line)
    }

    /// Traps with `message`.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        let text = "\n== fuzz invariant broken (\(file):\(line)): \(message)\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        fatalError("fuzz invariant broken", file: file, line: line)
    }

    /// `body` on a fresh allocation of exactly `bytes.count` bytes, so AddressSanitizer
    /// reports any read past the end (an array's spare capacity would hide a short overrun).
    public static func withExactCopy<R>(of bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        defer { copy.deallocate() }
        let exact = UnsafeMutableRawBufferPointer(rebasing: copy[0..<bytes.count])
        if bytes.count > 0 { exact.copyMemory(from: bytes) }
        return body(UnsafeRawBufferPointer(exact))
    }
}

import CacheGenCore
import CacheGenReading

/// The lines of an input, for checking that a reported location points inside it.
///
/// Readers count columns in Unicode scalars and may treat a lone CR as a line break; the
/// bounds here are in bytes (never fewer than scalars) and, when the input holds a CR,
/// loose: any line number up to the count of all breaks, any column up to the longest line.
public struct TextBounds: Sendable {
    /// Bytes per line, split at LF only.
    let lineLengths: [Int]
    /// Whether the input holds a CR anywhere.
    let hasCarriageReturn: Bool
    /// LF and CR bytes in all.
    let breakCount: Int

    /// Measures `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        // Contiguous bytes (an array, `Data`) are scanned through a buffer: a generic
        // iterator costs a witness call per byte here, which was a tenth of the spec
        // pipeline's time per input.
        if let measured = bytes.withContiguousStorageIfAvailable({ TextBounds(buffer: UnsafeRawBufferPointer($0)) }) {
            self = measured
        } else {
            self = Array(bytes).withUnsafeBytes { TextBounds(buffer: $0) }
        }
    }

    /// Measures the bytes in `buffer`.
    public init(buffer: UnsafeRawBufferPointer) {
        var lengths: [Int] = []
        var current = 0
        var carriageReturn = false
        var breaks = 0
        for byte in buffer {
            if byte == 0x0A {
                lengths.append(current)
                current = 0
                breaks += 1
            } else {
                if byte == 0x0D {
                    carriageReturn = true
                    breaks += 1
                }
                current += 1
            }
        }
        lengths.append(current)
        lineLengths = lengths
        hasCarriageReturn = carriageReturn
        breakCount = breaks
    }

    /// Why `location` is not a place in the input, or `nil` when it is.
    public func problem(with location: SourceLocation) -> String? {
        guard location.line >= 1, location.column >= 1 else { return "location \(location) is not 1-based" }
        if hasCarriageReturn {
            guard location.line <= breakCount + 1 else { return "line of \(location) past the \(breakCount + 1) lines" }
            let longest = lineLengths.max() ?? 0
            guard location.column <= longest + 1 else { return "column of \(location) past the longest line (\(longest) bytes)" }
            return nil
        }
        guard location.line <= lineLengths.count else { return "line of \(location) past the \(lineLengths.count) lines" }
        let length = lineLengths[location.line - 1]
        guard location.column <= length + 1 else { return "column of \(location) past its \(length)-byte line" }
        return nil
    }

    /// Requires every diagnostic to be located inside the file it names (`bounds` by path;
    /// a path not in it is itself a finding), with a one-line, non-empty message.
    public static func requireLocated(_ diagnostics: [Diagnostic], in bounds: [String: TextBounds], context: String) {
        for diagnostic in diagnostics {
            guard let fileBounds = bounds[diagnostic.location.file] else {
                FuzzCheck.fail("\(context): diagnostic names an unknown file: \(diagnostic)")
            }
            if let problem = fileBounds.problem(with: diagnostic.location) {
                FuzzCheck.fail("\(context): \(problem): \(diagnostic)")
            }
            FuzzCheck.require(!diagnostic.message.isEmpty, "\(context): empty message at \(diagnostic.location)")
            FuzzCheck.require(
                !diagnostic.message.unicodeScalars.contains { $0 == "\n" || $0 == "\r" },
                "\(context): message spans lines: \(diagnostic.description.debugDescription)")
        }
    }
}

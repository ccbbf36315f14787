/// A place in a spec file, 1-based; columns count Unicode scalars from the line start.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file path as the user gave it.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors read.
    public var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then line, then column, so reports read top to bottom.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// One problem found in a spec, with where it is and what to do about it.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// Output is still produced.
        case warning
        /// No output is produced and the CLI exits 1.
        case error
    }

    /// How bad the problem is.
    public var severity: Severity
    /// One sentence, saying what is wrong and what to do.
    public var message: String
    /// Where the problem is.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// An error at `location`.
    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    /// A warning at `location`.
    public static func warning(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    /// `file:line:column: error: message`, as compilers print, so Xcode and SwiftPM
    /// show it at the spec's line.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// Spec text shown as it is in a message when it is plain (printable ASCII without a quote,
/// 60 bytes at most: a media type with its parameters, a status code), and `quoted`
/// otherwise, so that whatever a document holds, a diagnostic stays on one line.
package func plainOrQuoted(_ value: some CustomStringConvertible) -> String {
    let text = String(describing: value)
    guard !text.isEmpty, text.utf8.count <= 60, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 }) else {
        return quoted(text)
    }
    return text
}

/// Spec text quoted for a message, in one place: control characters escaped so a
/// diagnostic stays on one line, and long values shortened so it stays readable.
package func quoted(_ value: some CustomStringConvertible) -> String {
    let original = String(describing: value)
    // Most names are short printable ASCII with no quote: nothing to escape or shorten.
    if original.utf8.count <= 60, original.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 }) {
        return "\"" + original + "\""
    }
    var text = ""
    for scalar in original.unicodeScalars {
        switch scalar {
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case "\"": text += "\\\""
        case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
            text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: text.unicodeScalars.append(scalar)
        }
    }
    if text.count > 60 { text = String(text.prefix(57)) + "…" }
    return "\"" + text + "\""
}

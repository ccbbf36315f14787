import Testing

/// One malformed input with the exact error it must produce: each reader's tests
/// (`JSONReaderTests`, `YAMLReaderTests`) check their own cases against their reader.
package struct SyntaxErrorCase: Sendable, CustomTestStringConvertible {
    /// What the case shows, as the test's argument is named.
    package var name: String
    /// The input.
    package var bytes: [UInt8]
    /// The error's line, from 1.
    package var line: Int
    /// The error's column, from 1.
    package var column: Int
    /// The error's exact message.
    package var message: String

    /// A case whose input is `text`'s UTF-8.
    package init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ message: String) {
        self.init(name, bytes: Array(text.utf8), line, column, message)
    }

    /// A case whose input is `bytes`, which need not be UTF-8.
    package init(_ name: String, bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.message = message
    }

    /// The name, as the test's argument.
    package var testDescription: String { name }
}

import CacheGenReading

extension TypeRef {
    /// The deepest nesting of `[…]` a type may have: deeper types are never real API
    /// shapes, and the Swift compiler's time grows exponentially with the depth.
    package static let maximumNesting = 8

    /// Parses a spec type string (`string`, `Account`, `[T]`, `[string: T]`, `T?`).
    ///
    /// Model names are not resolved here; the validator checks them against the spec.
    /// - Returns: the type, or a message saying what is wrong.
    package static func parse(_ text: String) -> Result<TypeRef, TypeSyntaxError> {
        var parser = TypeStringParser(text: Array(text.unicodeScalars))
        return parser.parseWhole().mapError { TypeSyntaxError(message: "invalid type \(quoted(text)); \($0.reason)") }
    }
}

/// Why a type string could not be read.
package struct TypeSyntaxError: Error, Sendable {
    /// The full message.
    package var message: String
}

/// A recursive-descent reader for the small type grammar.
private struct TypeStringParser {
    package let text: [Unicode.Scalar]
    package var index = 0
    package var depth = 0

    package struct Failure: Error {
        package var reason: String
    }

    package mutating func parseWhole() -> Result<TypeRef, Failure> {
        do throws(Failure) {
            skipSpaces()
            let type = try parseType()
            skipSpaces()
            if index < text.count {
                throw Failure(reason: "unexpected \(quoted(String(String.UnicodeScalarView(text[index...])))) after the type")
            }
            return .success(type)
        } catch {
            return .failure(error)
        }
    }

    package mutating func parseType() throws(Failure) -> TypeRef {
        var type = try parseBase()
        skipSpaces()
        if peek == "?" {
            index += 1
            type = .optional(type)
            skipSpaces()
            if peek == "?" { throw Failure(reason: "a type can be optional only once") }
        }
        return type
    }

    package mutating func parseBase() throws(Failure) -> TypeRef {
        skipSpaces()
        if peek == "[" {
            depth += 1
            defer { depth -= 1 }
            guard depth <= TypeRef.maximumNesting else {
                throw Failure(reason: "types may nest at most \(TypeRef.maximumNesting) levels of [ ]")
            }
            index += 1
            skipSpaces()
            let start = index
            let first = try parseType()
            skipSpaces()
            if peek == ":" {
                guard first == .scalar(.string) else {
                    index = start
                    throw Failure(reason: "dictionary keys must be string, as in [string: double]")
                }
                index += 1
                let value = try parseType()
                try expect("]")
                return .dictionary(value)
            }
            try expect("]")
            return .array(first)
        }
        let name = identifier()
        guard !name.isEmpty else {
            if let peek { throw Failure(reason: "expected a type name, found \(quoted(Character(peek)))") }
            throw Failure(reason: "expected a type name")
        }
        if let scalar = TypeRef.Scalar(rawValue: name) { return .scalar(scalar) }
        return .model(name)
    }

    package mutating func expect(_ scalar: Unicode.Scalar) throws(Failure) {
        skipSpaces()
        guard peek == scalar else { throw Failure(reason: "expected '\(scalar)'") }
        index += 1
    }

    /// `_`, a digit or a letter; ASCII is answered without the Unicode tables.
    package static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "_", "0"..."9", "a"..."z", "A"..."Z": true
        case _ where scalar.isASCII: false
        default: scalar.properties.isAlphabetic
        }
    }

    package mutating func identifier() -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek, Self.isIdentifierScalar(scalar) {
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    package mutating func skipSpaces() {
        while peek == " " { index += 1 }
    }

    package var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }
}

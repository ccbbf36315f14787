import CacheGenReading

/// Scalar resolution by YAML 1.2's core schema, tags, and the parser's messages.
extension YAMLParser {
    /// The value of a scalar: quoted and block scalars are strings; plain scalars are
    /// null, booleans, numbers or strings by the core schema; a tag asks for one of those.
    /// Strings are moved out of the token, which is not used afterwards but for its style.
    package func resolve(_ token: inout YAMLToken, tag: YAMLToken?) throws(Diagnostic) -> JSONNode.Value {
        guard let tag else {
            if token.style != .plain { return .string(Self.take(&token.text)) }
            return try resolvePlain(&token.text, at: token.mark)
        }
        switch tag.tag {
        case .string, .nonSpecific:
            return .string(Self.take(&token.text))
        case .mapping, .sequence:
            throw failure("the tag '\(tag.tag.name)' cannot be on a scalar; remove it", at: tag.mark)
        case .null, .bool, .integer, .float:
            var text = token.text
            let value = try resolvePlain(&text, at: token.mark)
            let matches =
                switch (tag.tag, value) {
                case (.null, .null), (.bool, .bool): true
                case (.integer, .number(_, let text)): !text.contains(".") && !text.contains("e") && !text.contains("E")
                case (.float, .number): true
                default: false
                }
            guard matches else {
                throw failure(
                    "\(quoted(token.text)) is not a valid \(tag.tag.name) value; fix the value or remove the tag",
                    at: token.mark)
            }
            return value
        }
    }

    /// The value of an empty node that has a tag: `!!str` and `!` give "", `!!null` null.
    package func resolveEmpty(tag: YAMLToken?) throws(Diagnostic) -> JSONNode.Value {
        guard let tag else { return .null }
        switch tag.tag {
        case .string, .nonSpecific: return .string("")
        case .null: return .null
        default:
            throw failure("an empty value cannot have the tag '\(tag.tag.name)'; write a value", at: tag.mark)
        }
    }

    /// `text`, leaving an empty string in its place.
    @inline(__always) package static func take(_ text: inout String) -> String {
        var taken = ""
        swap(&taken, &text)
        return taken
    }

    /// Resolves a plain scalar by the core schema; a string is moved out of `text`.
    package func resolvePlain(_ text: inout String, at mark: YAMLMark) throws(Diagnostic) -> JSONNode.Value {
        guard let first = text.utf8.first else { return .null }
        // The length is looked at first: most keys and words only share a first letter.
        switch first {
        case 0x7E, 0x6E, 0x4E:  // ~ n N
            let count = text.utf8.count
            if count == 1 && text == "~" || count == 4 && (text == "null" || text == "Null" || text == "NULL") {
                return .null
            }
        case 0x74, 0x54:  // t T
            if text.utf8.count == 4, text == "true" || text == "True" || text == "TRUE" { return .bool(true) }
        case 0x66, 0x46:  // f F
            if text.utf8.count == 5, text == "false" || text == "False" || text == "FALSE" { return .bool(false) }
        case 0x30...0x39, ASCII.plus, ASCII.minus, ASCII.dot:
            do {
                if let number = try YAMLNumber.parse(text) { return number }
            } catch {
                throw failure(error.message, at: mark)
            }
        default:
            break
        }
        return .string(Self.take(&text))
    }

    /// An error at a mark.
    package func failure(_ message: String, at mark: YAMLMark) -> Diagnostic {
        .error(message, at: scanner.cursor.location(mark))
    }

    /// A token as it reads in a message.
    package func describe(_ token: YAMLToken) -> String {
        switch token.kind {
        case .streamEnd: "the end of the file"
        case .directive: "a directive"
        case .documentStart: "'---'"
        case .documentEnd: "'...'"
        case .blockSequenceStart, .blockEntry: "'- '"
        case .blockMappingStart, .key: "a key"
        case .blockEnd: "the end of an indented block"
        case .flowSequenceStart: "'['"
        case .flowSequenceEnd: "']'"
        case .flowMappingStart: "'{'"
        case .flowMappingEnd: "'}'"
        case .flowEntry: "','"
        case .value: "':'"
        case .alias: "an alias"
        case .anchor: "an anchor"
        case .tag: "a tag"
        case .scalar: "the value \(quoted(token.text))"
        }
    }
}

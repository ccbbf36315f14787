import CacheGenReading
import CacheGenSpec

/// Swift names for what a document names on the wire, when the name made from it cannot
/// be used as it is: it has no letter or digit (`""`, `-`), it is taken by another name
/// of the same method or model (`DateCreated` and `DateCreated<`), or it is too long. The
/// wire name never changes; the Swift name is chosen deterministically, with a located
/// warning where it is arbitrary, and an overlay's `names` chooses another.
///
/// ```json
/// "names": {
///   "operations": { "operationId": "methodName" },
///   "parameters": { "operationId": { "DateCreated<": "createdBefore" } },
///   "properties": { "Incident": { "": "summary" } }
/// }
/// ```
package struct OpenAPINames {
    /// The keys of an overlay's `names`, in the order the schema lists them.
    package static let keys = ["operations", "parameters", "properties"]
    /// Method, argument and property names longer than this are shortened.
    package static let maximumLength = 60

    /// What a rename in the overlay applies to.
    private enum Kind: String {
        case operation = "operations", parameter = "parameters", property = "properties"
    }

    /// The overlay's renames by kind, owner (operation or model; empty for operations) and
    /// wire name, with where each is written.
    private var renames: [String: Named] = [:]
    /// The renames that something in the document used.
    private var used: Set<String> = []
    /// Problems in `names`, read through the spec parser's value readers.
    private var values = SpecParser()

    /// Errors and warnings about `names`.
    package var diagnostics: [Diagnostic] { values.diagnostics }

    /// Reads an overlay's `names`, when present.
    package mutating func read(overlay: JSONNode) {
        guard overlay.members != nil, let node = overlay["names"]?.value,
            let groups = values.object(node, "\"names\"", allowed: Self.keys)
        else { return }
        if let node = groups["operations"]?.value, let entries = values.object(node, "\"names.operations\"", allowed: nil) {
            for entry in entries.list { add(entry, kind: .operation, owner: "") }
        }
        for kind in [Kind.parameter, .property] {
            guard let node = groups[kind.rawValue]?.value,
                let owners = values.object(node, "\"names.\(kind.rawValue)\"", allowed: nil)
            else { continue }
            for owner in owners.list {
                guard let entries = values.object(owner.value, quoted("names.\(kind.rawValue).\(owner.key)"), allowed: nil) else { continue }
                for entry in entries.list { add(entry, kind: kind, owner: owner.key) }
            }
        }
    }

    /// Records one rename after checking that it is a plain Swift name.
    private mutating func add(_ entry: JSONMember, kind: Kind, owner: String) {
        guard let text = values.string(entry.value, "a Swift name") else { return }
        guard !text.isEmpty, !SwiftNaming.isNameless(text), SwiftNaming.memberName(text) == text, !SwiftNaming.keywords.contains(text) else {
            values.diagnostics.append(
                .error(
                    "\(quoted(text)) is not a Swift name cachegen can use; write one such as \"createdBefore\" (letters and digits, starting with a lower-case letter)",
                    at: entry.value.location))
            return
        }
        renames[Self.key(kind, owner, entry.key)] = Named(name: text, location: entry.keyLocation)
    }

    private static func key(_ kind: Kind, _ owner: String, _ wire: String) -> String {
        kind.rawValue + "\u{0}" + owner + "\u{0}" + wire
    }

    // Each lookup first asks whether there are renames at all: most documents have none, and
    // making the key costs more than the lookup.

    /// The overlay's name for an operation's method, if it gives one.
    package mutating func renamed(operation: String) -> String? {
        renames.isEmpty ? nil : take(Self.key(.operation, "", operation))
    }

    /// The overlay's name for a parameter's argument, if it gives one.
    package mutating func renamed(parameter wire: String, of operation: String) -> String? {
        renames.isEmpty ? nil : take(Self.key(.parameter, operation, wire))
    }

    /// The overlay's name for a property, if it gives one.
    package mutating func renamed(property wire: String, of model: String) -> String? {
        renames.isEmpty ? nil : take(Self.key(.property, model, wire))
    }

    private mutating func take(_ key: String) -> String? {
        guard let rename = renames[key] else { return nil }
        used.insert(key)
        return rename.name
    }

    /// Warns about renames that matched nothing in the document.
    package mutating func checkUnused(documentName: String) {
        for (key, rename) in renames.sorted(by: { $0.value.location < $1.value.location }) where !used.contains(key) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            let what: String
            switch Kind(rawValue: parts[0]) {
            case .operation?: what = "operation \(quoted(parts[2]))"
            case .parameter?: what = "parameter \(quoted(parts[2])) of operation \(quoted(parts[1]))"
            default: what = "property \(quoted(parts[2])) of \(quoted(parts[1]))"
            }
            values.diagnostics.append(
                .warning("\"names\" renames \(what), which \(documentName) does not generate; the rename has no effect", at: rename.location))
        }
    }

    // MARK: - Names made from wire names

    /// Words for the characters of a name with no letter or digit: `""` → `empty`,
    /// `-` → `minus`, `<=` → `lessThanEquals`; any other character by its code (`u00E9`).
    package static func spelled(_ wire: String) -> String {
        guard !wire.isEmpty else { return "empty" }
        let words: [Character: String] = [
            "-": "minus", "+": "plus", "*": "star", "/": "slash", "\\": "backslash", ".": "dot", ",": "comma",
            ":": "colon", ";": "semicolon", "_": "underscore", "@": "at", "#": "hash", "$": "dollar", "%": "percent",
            "&": "and", "|": "or", "!": "not", "?": "question", "=": "equals", "<": "lessThan", ">": "greaterThan",
            "~": "tilde", "^": "caret", "'": "quote", "\"": "doubleQuote", "`": "backtick", " ": "space",
            "(": "openParen", ")": "closeParen", "[": "openBracket", "]": "closeBracket", "{": "openBrace",
            "}": "closeBrace",
        ]
        var parts: [String] = []
        for character in wire {
            if let word = words[character] {
                parts.append(word)
            } else {
                let codes = character.unicodeScalars.map { scalar in
                    let digits = String(scalar.value, radix: 16, uppercase: true)
                    return "u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                }
                parts.append(contentsOf: codes)
            }
        }
        let joined = parts.enumerated().map { $0.offset == 0 ? $0.element : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
        return shortened(joined.joined())
    }

    /// The Swift member name for a wire name (`spelled` when it has no letter or digit),
    /// shortened to `maximumLength`.
    package static func memberName(_ wire: String) -> String {
        SwiftNaming.isNameless(wire) ? spelled(wire) : shortened(SwiftNaming.memberName(wire))
    }

    /// `name` when it is at most `maximumLength` characters long, else its first
    /// characters (cut where a word starts near the end) and six decimal digits of a hash
    /// of the whole, so two long names that start alike stay apart; the result is its own
    /// `SwiftNaming.memberName`.
    package static func shortened(_ name: String) -> String {
        // No more bytes than the limit means no more characters either.
        guard name.utf8.count > maximumLength else { return name }
        let characters = Array(name)
        guard characters.count > maximumLength else { return name }
        var cut = maximumLength - 6
        if let word = (cut - 12..<cut).reversed().first(where: { characters[$0].isUppercase }) { cut = word }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash % 1_000_000)
        return String(characters[..<cut]) + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// `Before`, `After`, `OnOrBefore` or `OnOrAfter` for a name that ends in `<`, `>`, `<=`
    /// or `>=`, with the name before it: the way such APIs filter by a range
    /// (`DateCreated<`), told apart from the plain name.
    package static func comparison(_ wire: String) -> (stem: String, word: String)? {
        for (suffix, word) in [("<=", "OnOrBefore"), (">=", "OnOrAfter"), ("<", "Before"), (">", "After")] where wire.hasSuffix(suffix) {
            let stem = String(wire.dropLast(suffix.count))
            return SwiftNaming.isNameless(stem) ? nil : (stem, word)
        }
        return nil
    }

    /// How to choose another name, for the end of a warning.
    package static func advice(operation: String) -> String {
        "to choose another, add \"names\": { \"operations\": { \(quoted(operation)): \"…\" } } to the overlay"
    }

    /// How to choose another argument name, for the end of a warning.
    package static func advice(parameter wire: String, of operation: String) -> String {
        "to choose another, add \"names\": { \"parameters\": { \(quoted(operation)): { \(quoted(wire)): \"…\" } } } to the overlay"
    }

    /// How to choose another property name, for the end of a warning.
    package static func advice(property wire: String, of model: String) -> String {
        "to choose another, add \"names\": { \"properties\": { \(quoted(model)): { \(quoted(wire)): \"…\" } } } to the overlay"
    }
}

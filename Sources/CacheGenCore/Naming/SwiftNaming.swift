/// Turning spec names into Swift identifiers, in one place.
///
/// Wire names are never changed; only the Swift side is made safe: words are split on
/// anything that is not a letter or digit and at lower→upper case changes, joined in
/// camel case, given a leading `_` when they would start with a digit, and wrapped in
/// backticks when they are keywords.
public enum SwiftNaming {
    /// Words that must be escaped with backticks wherever they are used as a name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "Type", "Protocol", "some", "any",
    ]

    /// A type name: `account_kind` → `AccountKind`.
    public static func typeName(_ name: String) -> String {
        let words = words(name)
        guard !words.isEmpty else { return "_" }
        let joined = words.map(capitalized).joined()
        return guardLeadingDigit(joined)
    }

    /// A property, parameter, method or case name: `per_page` → `perPage`, `+1` → `plus1`.
    ///
    /// Not escaped: use `escaped(_:)` where the name is declared or referenced.
    public static func memberName(_ name: String) -> String {
        let words = words(name)
        guard let first = words.first else { return "_" }
        let head = first.allSatisfy(\.isUppercase) && first.count > 1 ? first.lowercased() : lowercasedFirst(first)
        return guardLeadingDigit(head + words.dropFirst().map(capitalized).joined())
    }

    /// The Swift argument name of a path, query or header parameter.
    ///
    /// `policy` and `body` are the generated methods' own arguments, so parameters with
    /// those names get a `Parameter` suffix (`policyParameter`) instead of clashing.
    public static func argumentName(_ name: String) -> String {
        let member = memberName(name)
        return member == "policy" || member == "body" ? member + "Parameter" : member
    }

    /// A name as an argument label (declared or in a call): keywords are fine there,
    /// except the three that would be read as parameter modifiers.
    public static func label(_ identifier: String) -> String {
        ["inout", "var", "let"].contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// A name as the label of an argument in a call: only `inout` needs backticks there.
    public static func callLabel(_ identifier: String) -> String {
        identifier == "inout" ? "`inout`" : identifier
    }

    /// Whether a spec name has nothing a Swift name can be made of (no ASCII letter or
    /// digit), such as `""`, `"@"` or `"é"`.
    public static func isNameless(_ name: String) -> Bool {
        split(name).isEmpty
    }

    /// The case name of an enum value; a value with no letters or digits (`"[:]"`) is
    /// named by its position instead (`value2`), since the wire value cannot change.
    public static func caseName(_ value: String, position: Int) -> String {
        isNameless(value) ? "value\(position + 1)" : memberName(value)
    }

    /// A parameter's name where its value is used. A parameter called `self` would hide
    /// `self`, so its inner name is `self_`.
    public static func parameterValue(_ identifier: String) -> String {
        identifier == "self" ? "self_" : escaped(identifier)
    }

    /// The name in backticks when it is a keyword.
    public static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// `openedAt` → `opened_at`, `HTTPStatus` → `http_status`, for `jsonKeys: snake_case`.
    public static func snakeCase(_ name: String) -> String {
        split(name).map { $0.lowercased() }.joined(separator: "_")
    }

    /// Words as written (`receiptURL` keeps `URL`), but all lower case when the whole
    /// name is upper case (`HTTP_STATUS` → `http`, `status`).
    private static func words(_ name: String) -> [String] {
        let words = split(name)
        return name.contains(where: \.isLowercase) ? words : words.map { $0.lowercased() }
    }

    /// Splits into words at separators and case changes; signs become words.
    static func split(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for (index, character) in characters.enumerated() {
            if character == "+" || character == "-", current.isEmpty,
                index + 1 < characters.count, characters[index + 1].isNumber, words.isEmpty
            {
                words.append(character == "+" ? "plus" : "minus")
                continue
            }
            guard character.isLetter || character.isNumber, character.isASCII else {
                flush()
                continue
            }
            if let last = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let lowerToUpper = (last.isLowercase || last.isNumber) && character.isUppercase
                let acronymEnd = last.isUppercase && character.isUppercase && (next?.isLowercase ?? false)
                if lowerToUpper || acronymEnd { flush() }
            }
            current.append(character)
        }
        flush()
        return words
    }

    private static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    private static func lowercasedFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.lowercased() + word.dropFirst()
    }

    private static func guardLeadingDigit(_ name: String) -> String {
        guard let first = name.first else { return "_" }
        return first.isNumber ? "_" + name : name
    }
}

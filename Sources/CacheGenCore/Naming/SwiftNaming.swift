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
        if let fast = asciiName(name, member: false) { return fast }
        let words = words(name)
        guard !words.isEmpty else { return "_" }
        let joined = words.map(capitalized).joined()
        return guardLeadingDigit(joined)
    }

    /// A property, parameter, method or case name: `per_page` → `perPage`, `+1` → `plus1`.
    ///
    /// Not escaped: use `escaped(_:)` where the name is declared or referenced.
    public static func memberName(_ name: String) -> String {
        if let fast = asciiName(name, member: true) { return fast }
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
        // For ASCII, `split` finds a word exactly when there is a letter or digit.
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return split(name).isEmpty }
        return !name.utf8.contains { isUpper($0) || isLower($0) || isDigit($0) }
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

    /// The name without the backticks `escaped(_:)` may have added, for doc comments.
    static func unescaped(_ identifier: String) -> String {
        guard identifier.utf8.count > 1, identifier.utf8.first == UInt8(ascii: "`"), identifier.utf8.last == UInt8(ascii: "`")
        else { return identifier }
        return String(identifier.dropFirst().dropLast())
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
        let hasLowercase = name.utf8.allSatisfy { $0 < 0x80 }
            ? name.utf8.contains { $0 >= 0x61 && $0 <= 0x7A }
            : name.contains(where: \.isLowercase)
        return hasLowercase ? words : words.map { $0.lowercased() }
    }

    /// Splits into words at separators and case changes; signs become words.
    static func split(_ name: String) -> [String] {
        let bytes = Array(name.utf8)
        if bytes.allSatisfy({ $0 < 0x80 }) { return splitASCII(bytes) }
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

    /// `split` for ASCII names, on bytes: the same rules without Unicode property lookups
    /// (for ASCII, letters are A–Z and a–z and numbers are 0–9).
    private static func splitASCII(_ bytes: [UInt8]) -> [String] {
        asciiWords(bytes).map { String(decoding: $0, as: UTF8.self) }
    }

    private static let plusWord = Array("plus".utf8)[...]
    private static let minusWord = Array("minus".utf8)[...]

    @inline(__always) private static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    @inline(__always) private static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The words of an ASCII name as slices of its bytes (words are contiguous runs).
    private static func asciiWords(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var words: [ArraySlice<UInt8>] = []
        var start: Int?
        func flush(_ end: Int) {
            if let first = start, first < end { words.append(bytes[first..<end]) }
            start = nil
        }
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x2B || byte == 0x2D, start == nil, index + 1 < bytes.count, isDigit(bytes[index + 1]),
                words.isEmpty
            {
                words.append(byte == 0x2B ? plusWord : minusWord)
                continue
            }
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                flush(index)
                continue
            }
            if start != nil {
                let last = bytes[index - 1]
                let nextIsLower = index + 1 < bytes.count && isLower(bytes[index + 1])
                let lowerToUpper = (isLower(last) || isDigit(last)) && isUpper(byte)
                let acronymEnd = isUpper(last) && isUpper(byte) && nextIsLower
                if lowerToUpper || acronymEnd { flush(index) }
            }
            if start == nil { start = index }
        }
        flush(bytes.count)
        return words
    }

    /// `typeName` (`member` false) or `memberName` of an ASCII name, built on bytes; `nil`
    /// for any other name, which takes the general path. Same rules: words lower-cased when
    /// the name has no lower-case letter; a type capitalises every word; a member lower-cases
    /// its first word (wholly when it is an all-capital acronym of two or more letters, else
    /// its first letter) and capitalises the rest; a leading digit gets `_`.
    private static func asciiName(_ name: String, member: Bool) -> String? {
        let bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let words = asciiWords(bytes)
        guard !words.isEmpty else { return "_" }
        let lowerAll = !bytes.contains(where: isLower)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        for (number, word) in words.enumerated() {
            let wordStart = out.count
            for byte in word { out.append(lowerAll && isUpper(byte) ? byte | 0x20 : byte) }
            if member && number == 0 {
                let acronym = word.count > 1 && out[wordStart...].allSatisfy(isUpper)
                if acronym {
                    for index in wordStart..<out.count { out[index] |= 0x20 }
                } else if isUpper(out[wordStart]) {
                    out[wordStart] |= 0x20
                }
            } else if isLower(out[wordStart]) {
                out[wordStart] &= ~0x20
            }
        }
        if isDigit(out[0]) { out.insert(UInt8(ascii: "_"), at: 0) }
        return String(decoding: out, as: UTF8.self)
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

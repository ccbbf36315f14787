import CacheGenReading

/// Turning spec names into Swift identifiers, in one place.
///
/// Wire names are never changed; only the Swift side is made safe: words are split on
/// anything that is not a letter or digit and at lower→upper case changes, joined in
/// camel case, given a leading `_` when they would start with a digit, and wrapped in
/// backticks when they are keywords.
public enum SwiftNaming {
    /// Words that must be escaped with backticks wherever they are used as a name.
    package static let keywords: Set<String> = [
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
    package static func unescaped(_ identifier: String) -> String {
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
    package static func split(_ name: String) -> [String] {
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
        bytes.withUnsafeBufferPointer { buffer in
            var words: [String] = []
            var iterator = ASCIIWords(bytes: buffer)
            while let word = iterator.next() {
                switch word {
                case .letters(let range): words.append(String(decoding: buffer[range], as: UTF8.self))
                case .sign(let sign): words.append(sign == ASCII.plus ? "plus" : "minus")
                }
            }
            return words
        }
    }

    @inline(__always) fileprivate static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    @inline(__always) fileprivate static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    @inline(__always) fileprivate static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `typeName` (`member` false) or `memberName` of an ASCII name, built on bytes; `nil`
    /// for any other name, which takes the general path. Same rules: words lower-cased when
    /// the name has no lower-case letter; a type capitalises every word; a member lower-cases
    /// its first word (wholly when it is an all-capital acronym of two or more letters, else
    /// its first letter) and capitalises the rest; a leading digit gets `_`.
    ///
    /// Implementation note: names are made tens of thousands of times for a large document,
    /// so this reads the name's own UTF-8 storage and writes the result straight into the new
    /// string's storage, with no array of words or bytes in between.
    private static func asciiName(_ name: String, member: Bool) -> String? {
        let made = name.utf8.withContiguousStorageIfAvailable { asciiName($0, member: member) }
            ?? Array(name.utf8).withUnsafeBufferPointer { asciiName($0, member: member) }
        switch made {
        case .unchanged: return name
        case .made(let text): return text
        case .notASCII: return nil
        }
    }

    /// What `asciiName` makes of a name.
    private enum ASCIIName {
        /// The name is its own Swift name.
        case unchanged
        /// Another name.
        case made(String)
        /// The name is not ASCII.
        case notASCII
    }

    private static func asciiName(_ bytes: UnsafeBufferPointer<UInt8>, member: Bool) -> ASCIIName {
        var lowerAll = true
        var lettersAndDigits = true
        for byte in bytes {
            if byte >= 0x80 { return .notASCII }
            if isLower(byte) {
                lowerAll = false
            } else if !isUpper(byte) && !isDigit(byte) {
                lettersAndDigits = false
            }
        }
        // The common case, a name already in the right case (`serviceAccount` as a member,
        // `AudioResponse` as a type): with letters and digits only and a lower-case letter,
        // the words are the whole name and only the first can start in lower case, so the
        // rules below change nothing when that first letter is already right.
        if lettersAndDigits, !lowerAll, let first = bytes.first, member ? isLower(first) : isUpper(first) {
            return .unchanged
        }
        // At most every byte, a sign spelled out (`minus` for `-`) and a leading `_`.
        let made = String(unsafeUninitializedCapacity: bytes.count + 6) { out in
            var count = 0
            var words = ASCIIWords(bytes: bytes)
            var isFirst = true
            while let word = words.next() {
                if isFirst, case .letters(let range) = word, isDigit(bytes[range.lowerBound]) {
                    out[count] = UInt8(ascii: "_")
                    count += 1
                }
                let wordStart = count
                switch word {
                case .letters(let range):
                    for index in range {
                        let byte = bytes[index]
                        out[count] = lowerAll && isUpper(byte) ? byte | 0x20 : byte
                        count += 1
                    }
                case .sign(let sign):
                    for byte in (sign == ASCII.plus ? "plus" : "minus").utf8 {
                        out[count] = byte
                        count += 1
                    }
                }
                if member && isFirst {
                    var acronym = count - wordStart > 1
                    for index in wordStart..<count where !isUpper(out[index]) { acronym = false }
                    if acronym {
                        for index in wordStart..<count { out[index] |= 0x20 }
                    } else if isUpper(out[wordStart]) {
                        out[wordStart] |= 0x20
                    }
                } else if isLower(out[wordStart]) {
                    out[wordStart] &= ~0x20
                }
                isFirst = false
            }
            return count
        }
        return .made(made.isEmpty ? "_" : made)
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

/// One word of an ASCII name.
private enum ASCIIWord {
    /// A run of letters and digits, by its byte offsets in the name.
    case letters(Range<Int>)
    /// A leading `+` or `-` before a digit, which is spelled `plus` or `minus`.
    case sign(UInt8)
}

/// The words of an ASCII name, in order: runs of letters and digits, split where a
/// lower-case letter or digit meets an upper-case one and before the last capital of an
/// acronym that a lower-case letter follows (`HTTPStatus`: `HTTP`, `Status`); a sign before
/// a digit at the start (`+1`) is a word of its own.
private struct ASCIIWords {
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to look at.
    private var index = 0
    /// Whether a word has been returned, after which a sign is no word.
    private var found = false

    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    package mutating func next() -> ASCIIWord? {
        var start: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if start == nil, !found, byte == ASCII.plus || byte == ASCII.minus, index + 1 < bytes.count,
                SwiftNaming.isDigit(bytes[index + 1])
            {
                index += 1
                found = true
                return .sign(byte)
            }
            guard SwiftNaming.isUpper(byte) || SwiftNaming.isLower(byte) || SwiftNaming.isDigit(byte) else {
                index += 1
                if let start { return word(start..<index - 1) }
                continue
            }
            if let start {
                let last = bytes[index - 1]
                let nextIsLower = index + 1 < bytes.count && SwiftNaming.isLower(bytes[index + 1])
                let lowerToUpper = (SwiftNaming.isLower(last) || SwiftNaming.isDigit(last)) && SwiftNaming.isUpper(byte)
                let acronymEnd = SwiftNaming.isUpper(last) && SwiftNaming.isUpper(byte) && nextIsLower
                // The byte starts the next word: left for the next call.
                if lowerToUpper || acronymEnd { return word(start..<index) }
            } else {
                start = index
            }
            index += 1
        }
        return start.map { word($0..<index) }
    }

    private mutating func word(_ range: Range<Int>) -> ASCIIWord {
        found = true
        return .letters(range)
    }
}

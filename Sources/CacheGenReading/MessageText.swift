/// How the readers' messages show what they quote: text cut short, keys in JSON quotes,
/// characters that do not print as `U+XXXX`.
package enum MessageText {
    /// `text` in double quotes with JSON escapes, as keys are quoted in messages.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in excerpt(text).unicodeScalars {
            switch scalar {
            case "\"": result += #"\""#
            case "\\": result += #"\\"#
            case "\n": result += #"\n"#
            case "\r": result += #"\r"#
            case "\t": result += #"\t"#
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += #"\u"# + hex(scalar.value, digits: 4)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text`, cut to 40 characters so one huge token cannot swamp a message.
    package static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : text.prefix(40) + "…"
    }

    /// A character for a message: `'é'` when it prints, `U+00A0` when it does not.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        isPrintable(scalar) ? "'\(scalar)'" : "U+\(hex(scalar.value, digits: 4))"
    }

    /// Whether `scalar` shows as itself in a message, rather than as `U+XXXX`.
    package static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
            .spaceSeparator, .nonspacingMark, .enclosingMark:
            false
        default:
            true
        }
    }

    /// Uppercase hexadecimal, zero-padded to `digits`.
    package static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

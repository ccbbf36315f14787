@_spi(Generated) import CachedClientValues
import Foundation

// The inspection as a table for a terminal or a debug screen's text view: one section for the
// entries, one for the waiting mutations, one for unreadable files (only when there are
// some) and, when bodies were asked for, one for them. Columns are aligned, numbers to the
// right; every text from a file is printed with its control characters escaped, so a hostile
// file cannot move the cursor or forge a line.
extension CacheInspection: CustomStringConvertible {
    /// The table (see `table`).
    public var description: String { table }

    /// The inspection as aligned columns, ages counted back from `date`.
    public var table: String {
        var lines = ["Inspected at \(Self.printable(ISO8601.format(date)))", ""]
        lines.append("ENTRIES")
        if groups.isEmpty {
            lines.append("none")
        } else {
            var rows = [["PARTITION", "ENDPOINT", "ENTRIES", "SIZE", "OLDEST", "NEWEST", "FRESH", "STALE", "UNKNOWN", "PINNED"]]
            for group in groups {
                rows.append([
                    Self.printable(group.partition.description), Self.printable(group.endpoint), "\(group.entries)",
                    ByteCountText.format(group.bytes), age(of: group.oldest), age(of: group.newest), "\(group.fresh)",
                    "\(group.stale)", "\(group.unknownFreshness)", group.pinned == 0 ? "none" : "\(group.pinned)",
                ])
            }
            let entries = groups.reduce(0) { $0 + $1.entries }
            let bytes = groups.reduce(0) { $0 + $1.bytes }
            rows.append(["total", "", "\(entries)", ByteCountText.format(bytes), "", "", "", "", "", ""])
            lines += Self.aligned(rows, numeric: [2, 6, 7, 8])
        }
        lines.append("")
        lines.append("WAITING MUTATIONS")
        if mutations.isEmpty {
            lines.append("none")
        } else {
            var rows = [["PARTITION", "ENDPOINT", "METHOD", "AGE", "ATTEMPTS", "BODY", "STATUS"]]
            for mutation in mutations {
                rows.append([
                    Self.printable(mutation.partition.description), Self.printable(mutation.endpoint),
                    Self.printable(mutation.method), age(of: mutation.createdAt), "\(mutation.attempts)",
                    ByteCountText.format(mutation.bodyBytes),
                    mutation.failure.map { "failed: " + Self.printable($0) } ?? "waiting",
                ])
            }
            lines += Self.aligned(rows, numeric: [4])
        }
        if !unreadable.isEmpty {
            lines.append("")
            lines.append("UNREADABLE FILES")
            var rows = [["FILE", "REASON"]]
            for file in unreadable { rows.append([Self.printable(file.file), Self.printable(file.reason)]) }
            lines += Self.aligned(rows, numeric: [])
        }
        if !values.isEmpty {
            lines.append("")
            lines.append("VALUES (bodies as stored; credentials are never shown)")
            for value in values {
                lines.append(
                    [value.kind.rawValue, value.partition.description, value.endpoint, value.path, value.name]
                        .map { Self.printable($0) }.joined(separator: " "))
                lines.append("  " + Self.bodyText(value.body).replacingOccurrences(of: "\n", with: "\n  "))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `45s`, `12m`, `3h`, `2d`: the time from `stored` to `date`, in its largest whole unit;
    /// `future` for a date after it.
    package func age(of stored: Date) -> String {
        let seconds = date.timeIntervalSince(stored)
        guard seconds.isFinite, seconds < 1e15 else { return "?" }
        if seconds < 0 { return "future" }
        let whole = Int(seconds)
        switch whole {
        case ..<60: return "\(whole)s"
        case ..<3_600: return "\(whole / 60)m"
        case ..<86_400: return "\(whole / 3_600)h"
        default: return "\(whole / 86_400)d"
        }
    }

    /// A body as UTF-8 text with control characters other than newlines and tabs escaped,
    /// or its size when it is not UTF-8.
    package static func bodyText(_ body: Data) -> String {
        guard let text = String(data: body, encoding: .utf8) else { return "(\(body.count) bytes, not UTF-8)" }
        return printable(text, keeping: ["\n", "\t"])
    }

    /// `text` with every control character (C0, DEL, C1) other than `keeping` written as `\u{…}`.
    package static func printable(_ text: String, keeping: Set<Unicode.Scalar> = []) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < 0x20 || (0x7F...0x9F).contains(value)) && !keeping.contains(scalar) {
                result += "\\u{" + String(value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Rows padded to their columns' widths (in characters), two spaces apart, the `numeric`
    /// columns aligned to the right; no trailing spaces.
    private static func aligned(_ rows: [[String]], numeric: Set<Int>) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var cells: [String] = []
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                cells.append(numeric.contains(column) ? padding + cell : cell + padding)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

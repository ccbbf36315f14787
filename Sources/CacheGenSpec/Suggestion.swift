import CacheGenReading

/// "Did you mean" for misspelt keys and names, in one place.
package enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        // Long names are not typos of short ones; comparing them costs length².
        guard word.count <= 64 else { return nil }
        let limit = max(1, word.count / 3)
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates where abs(candidate.count - word.count) <= limit {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `; did you mean "x"?` or `; valid keys are "a", "b"` for an unknown key.
    package static func hint(for word: String, among candidates: [String], noun: String = "keys") -> String {
        if let match = closest(to: word, in: candidates) { return "; did you mean \(quoted(match))?" }
        return "; valid \(noun) are " + candidates.map { "\(quoted($0))" }.joined(separator: ", ")
    }

    /// Edit distance over characters where swapping two neighbours counts as one edit
    /// (optimal string alignment), the commonest typo.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}

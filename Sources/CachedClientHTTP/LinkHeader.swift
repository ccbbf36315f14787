import Foundation

/// Reads a `Link` header field (RFC 8288): `<https://api.example.com/items?page=3>; rel="next",
/// <…?page=9>; rel="last"`.
///
/// Only what paging needs: the target of a link with a given relation type, resolved against
/// the request's URL. A URI reference may hold commas and semicolons (it ends at `>`), a
/// `rel` may list several types (`rel="next last"`), quoted or not, and types compare without
/// case. Anything malformed ends the reading: what was read before it still counts.
package enum LinkHeader {
    /// The target of the first link whose `rel` holds `relation`, resolved against `base`.
    package static func target(ofRelation relation: String, in field: String, base: URL) -> URL? {
        for link in links(in: field) where link.relations.contains(where: { $0.caseInsensitiveCompare(relation) == .orderedSame }) {
            return URL(string: link.target, relativeTo: base)?.absoluteURL
        }
        return nil
    }

    /// One link-value: its target as written and its relation types.
    package struct Link: Equatable {
        package var target: String
        package var relations: [String]

        /// The memberwise initializer, for the package's other modules.
        package init(target: String, relations: [String]) {
            self.target = target
            self.relations = relations
        }
    }

    /// The link-values of a field, in order.
    package static func links(in field: String) -> [Link] {
        var links: [Link] = []
        var rest = Substring(field)
        func skip(_ characters: Set<Character>) {
            while let first = rest.first, characters.contains(first) { rest.removeFirst() }
        }
        while true {
            skip([" ", "\t", ","])
            guard rest.first == "<", let close = rest.firstIndex(of: ">") else { return links }
            let target = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            var relations: [String] = []
            // Parameters: `; name=value` or `; name="quoted value"`, up to the next link's comma.
            while true {
                skip([" ", "\t"])
                guard rest.first == ";" else { break }
                rest.removeFirst()
                skip([" ", "\t"])
                let name = rest.prefix { $0 != "=" && $0 != ";" && $0 != "," && $0 != " " && $0 != "\t" }
                rest = rest.dropFirst(name.count)
                skip([" ", "\t"])
                var value = ""
                if rest.first == "=" {
                    rest.removeFirst()
                    skip([" ", "\t"])
                    if rest.first == "\"" {
                        rest.removeFirst()
                        while let character = rest.first, character != "\"" {
                            rest.removeFirst()
                            if character == "\\", let escaped = rest.first {
                                value.append(escaped)
                                rest.removeFirst()
                            } else {
                                value.append(character)
                            }
                        }
                        guard rest.first == "\"" else { return links }
                        rest.removeFirst()
                    } else {
                        let token = rest.prefix { $0 != ";" && $0 != "," && $0 != " " && $0 != "\t" }
                        value = String(token)
                        rest = rest.dropFirst(token.count)
                    }
                }
                if name.lowercased() == "rel", relations.isEmpty {
                    relations = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                }
            }
            links.append(Link(target: target, relations: relations))
            skip([" ", "\t"])
            guard rest.first == "," || rest.isEmpty else { return links }
        }
    }
}

import CacheGenReading

/// An endpoint's retry rule (`"retry": {"max": 2}` or `"retry": false`).
public struct SpecRetry: Sendable, Hashable {
    /// Retries after the first attempt; 0 for `false`.
    public var max: Int
    /// Where the rule is written.
    public var location: SourceLocation

    /// The most retries a spec may ask for: more only adds to a struggling server's load.
    public static let limit = 10
}

/// How an endpoint's next page is found (`"paging": …`).
public struct SpecPaging: Sendable, Hashable {
    /// The kinds of paging a spec can declare.
    public enum Kind: Sendable, Hashable {
        /// `{"link": "next"}`: the `Link` header's URL with this relation (RFC 8288).
        case link(relation: String)
        /// `{"cursor": {"response": "pageInfo.endCursor", "parameter": "after"}}`: a value in
        /// the response body (a dotted path of JSON names) sent back as a query parameter.
        case cursor(response: [String], parameter: Named)
        /// `{"page": "page"}`: a page number query parameter, counted from the first value.
        case page(parameter: Named)
        /// `{"offset": "offset", "limit": "limit"}`: an offset parameter advanced by the
        /// number of items each page holds, and the page size parameter.
        case offset(parameter: Named, limit: Named)
    }

    /// The kind and its names.
    public var kind: Kind
    /// Where the rule is written.
    public var location: SourceLocation
    /// Where the cursor's response path is written (the rule's location otherwise).
    public var responseLocation: SourceLocation

    /// The query parameters the rule names, each with where it is written.
    public var parameters: [Named] {
        switch kind {
        case .link: []
        case .cursor(_, let parameter), .page(let parameter): [parameter]
        case .offset(let parameter, let limit): [parameter, limit]
        }
    }
}

extension SpecParser {
    /// Keys of a `paging` object, in the order the schema lists them.
    package static let pagingKeys = ["link", "cursor", "page", "offset", "limit"]
    /// Keys of a paging `cursor` object.
    package static let cursorKeys = ["response", "parameter"]

    /// `"retry": false` or `{"max": n}`.
    package mutating func retryRule(_ node: JSONNode) -> SpecRetry? {
        switch node.value {
        case .bool(false):
            return SpecRetry(max: 0, location: node.location)
        case .object:
            guard let fields = object(node, "\"retry\"", allowed: ["max"]) else { return nil }
            guard let max = fields["max"]?.value else {
                report("\"retry\" needs \"max\", the number of retries after the first attempt, such as {\"max\": 2}", at: node.location)
                return nil
            }
            guard case .number(let value, _) = max.value, let count = Int(exactly: value), (0...SpecRetry.limit).contains(count) else {
                report("\"max\" must be a whole number from 0 to \(SpecRetry.limit); found \(Self.shown(max))", at: max.location)
                return nil
            }
            return SpecRetry(max: count, location: node.location)
        default:
            report("\"retry\" must be false or an object such as {\"max\": 2}; found \(Self.shown(node))", at: node.location)
            return nil
        }
    }

    /// `"paging"`: one of `link`, `cursor`, `page`, or `offset` with `limit`.
    package mutating func pagingRule(_ node: JSONNode) -> SpecPaging? {
        guard let fields = object(node, "\"paging\"", allowed: Self.pagingKeys) else { return nil }
        let kinds = fields.list.filter { ["link", "cursor", "page", "offset"].contains($0.key) }
        guard kinds.count == 1, let kind = kinds.first else {
            report(
                kinds.isEmpty
                    ? "\"paging\" needs one of \"link\", \"cursor\", \"page\" or \"offset\", such as {\"link\": \"next\"}"
                    : "\"paging\" takes one of \"link\", \"cursor\", \"page\" or \"offset\"; found \(kinds.map { quoted($0.key) }.joined(separator: " and "))",
                at: node.location)
            return nil
        }
        func name(_ member: JSONMember, _ what: String) -> Named? {
            string(member.value, what).map { Named(name: $0, location: member.value.location) }
        }
        if kind.key != "offset", let limit = fields["limit"] {
            report("\"limit\" goes with \"offset\"; remove it", at: limit.keyLocation)
        }
        switch kind.key {
        case "link":
            guard let relation = string(kind.value, "\"link\"") else { return nil }
            return SpecPaging(kind: .link(relation: relation), location: node.location, responseLocation: node.location)
        case "cursor":
            guard let cursor = object(kind.value, "\"cursor\"", allowed: Self.cursorKeys) else { return nil }
            guard let path = cursor["response"], let parameter = cursor["parameter"] else {
                report(
                    "\"cursor\" needs \"response\" (where the next cursor is in the body) and \"parameter\" (the query parameter it is sent in)",
                    at: kind.value.location)
                return nil
            }
            guard let text = string(path.value, "\"response\""), let parameter = name(parameter, "\"parameter\"") else { return nil }
            let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !segments.contains(where: \.isEmpty) else {
                report("\"response\" must be a dotted path of JSON names such as \"pageInfo.endCursor\"; found \(quoted(text))", at: path.value.location)
                return nil
            }
            return SpecPaging(
                kind: .cursor(response: segments, parameter: parameter), location: node.location,
                responseLocation: path.value.location)
        case "page":
            guard let parameter = name(kind, "\"page\"") else { return nil }
            return SpecPaging(kind: .page(parameter: parameter), location: node.location, responseLocation: node.location)
        default:
            guard let offset = name(kind, "\"offset\"") else { return nil }
            guard let limitMember = fields["limit"] else {
                report("\"offset\" needs \"limit\", the page size parameter, such as {\"offset\": \"offset\", \"limit\": \"limit\"}", at: node.location)
                return nil
            }
            guard let limit = name(limitMember, "\"limit\"") else { return nil }
            return SpecPaging(kind: .offset(parameter: offset, limit: limit), location: node.location, responseLocation: node.location)
        }
    }

    /// A value as a message shows it: a number or a flag as written, anything else by its kind.
    private static func shown(_ node: JSONNode) -> String {
        switch node.value {
        case .number(_, let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: node.kindName
        }
    }
}

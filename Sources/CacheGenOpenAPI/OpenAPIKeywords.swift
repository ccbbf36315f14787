/// What the reader does with every keyword of every object of an OpenAPI document, in one
/// explicit table per object kind: each key is mapped, named as having no effect on a
/// generated client (and why), or not mapped with a reason that `OpenAPIKeywordWalk` reports
/// as a located warning wherever it is used. A key in no table is unknown (misspelt, or from
/// a version the table does not know) and is warned about too; `x-` extensions are allowed.
///
/// `OpenAPIKeywordWalkTests` checks the tables against the specification's own schemas (kept in
/// `Tests/Fixtures/ThirdParty/openapi-schemas/`), so a keyword a version adds cannot be
/// left out of them. One set of tables serves OpenAPI 3.0, 3.1 and 3.2 (`v3`, in
/// `OpenAPIKeywords+V3.swift`): a key of a later version in an earlier document is read the
/// same way. Swagger 2.0 has its own (`v2`, in `OpenAPIKeywords+V2.swift`), and its document
/// is walked as the user wrote it, before it is converted.
package struct OpenAPIKeywords: Sendable {
    /// What the reader does with one keyword.
    package enum Keyword: Sendable, Equatable {
        /// Read and mapped; where a value cannot be mapped, the mapper warns at it.
        case mapped
        /// No effect on a generated client (documentation, a check only the server makes,
        /// credentials the app sends itself): never warned about; the reason says why.
        case noEffect(String)
        /// Not mapped, and it changes what a call sends or returns: each use is a warning
        /// ending in this reason.
        case warned(String)
    }

    /// What a key's value is, so the walk knows how to go on into it.
    package indirect enum Value: Sendable, Equatable {
        /// A value the walk does not enter.
        case leaf
        /// An object of this kind.
        case object(Kind)
        /// An object whose every value is this (names chosen by the document).
        case map(Value)
        /// An array whose every element is this.
        case array(Value)
    }

    /// The object kinds of OpenAPI; a version's tables name those it has.
    package enum Kind: String, Sendable, CaseIterable {
        case document, info, contact, license, server, serverVariable, components, paths, pathItem, operation
        case externalDocumentation, parameter, requestBody, mediaType, encoding, responses, response, callback
        case example, link, header, tag, reference, schema, discriminator, xml, securityScheme, oauthFlows
        case oauthFlow, securityRequirement
        /// Swagger 2.0's: a body parameter (a parameter `in: body`) and an Items Object.
        case bodyParameter, items
    }

    /// Another table for an object whose `key` has one of these values (a 2.0 parameter
    /// `in: body` takes other keys than one in a query).
    package struct Variants: Sendable {
        /// The key that tells them apart.
        package var key: String
        /// The kind read for each of its values; other values keep the object's own kind.
        package var kinds: [String: Kind]
    }

    /// Which keys beside the fixed ones an object takes, and what their values are.
    package enum Patterned: Sendable, Equatable {
        /// Keys that start with `/` (the Paths Object).
        case paths(Value)
        /// HTTP status codes, `2XX` ranges included (the Responses Object).
        case statusCodes(Value)
        /// Any key (a callback's expressions, a security requirement's scheme names).
        case any(Value)

        /// Whether `key` is one of them, and its value.
        func value(of key: String) -> Value? {
            switch self {
            case .paths(let value): key.hasPrefix("/") ? value : nil
            case .statusCodes(let value): OpenAPIKeywords.isStatusCode(key) ? value : nil
            case .any(let value): value
            }
        }
    }

    /// One fixed key: what the reader does with it, and what its value is.
    package struct Entry: Sendable, Equatable {
        /// Mapped, without effect, or warned about.
        package var keyword: Keyword
        /// What the value is, for the walk to go on into it.
        package var value: Value
    }

    /// One object kind's table.
    package struct Table: Sendable {
        /// The kind with its article, for messages (`an Operation Object`).
        package var title: String
        /// The names this kind's definition has in the specifications' schemas, lower case
        /// without `-` or `_` (`pathitem` for `PathItem` and `path-item`).
        package var schemaNames: [String]
        /// The fixed keys.
        package var keys: [String: Entry]
        /// The other keys it takes; `nil`: every other key (but `x-`) is unknown.
        package var patterned: Patterned? = nil
        /// Whether a `$ref` in its place makes it a Reference Object.
        package var referable = false
        /// Another kind for an object whose key says so.
        package var variants: Variants? = nil
    }

    /// The tables, by kind.
    package let tables: [Kind: Table]
    /// The kind of the document itself.
    package let root: Kind
    /// The keys of the document that hold its reusable parts (`components`; 2.0's
    /// `definitions`, `parameters` and `responses`), which a walk of chosen operations skips.
    package let components: Set<String>

    /// - Parameters:
    ///   - tables: the tables, by kind.
    ///   - root: the kind of the document.
    ///   - components: the document's keys that hold reusable parts.
    package init(tables: [Kind: Table], root: Kind, components: Set<String>) {
        self.tables = tables
        self.root = root
        self.components = components
    }

    /// The table of `kind`.
    package subscript(kind: Kind) -> Table {
        // Every kind a table's values name has a table of its own (checked by the tests).
        tables[kind] ?? Table(title: kind.rawValue, schemaNames: [], keys: [:])
    }

    /// `200`, `2XX`, `2xx`: a status code or a range of them.
    package static func isStatusCode(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[0]) else { return false }
        let isDigit = bytes[1...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let isRange = bytes[1...].allSatisfy { $0 == UInt8(ascii: "X") || $0 == UInt8(ascii: "x") }
        return isDigit || isRange
    }
}

extension OpenAPIKeywords {
    // What each version's tables are written with.

    /// `key: .mapped` entries with values.
    static func mapped(_ pairs: [(String, Value)]) -> [String: Entry] {
        Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, Entry(keyword: .mapped, value: $0.1)) })
    }

    /// `key: .noEffect(reason)` entries for each key.
    static func noEffect(_ keys: [String], _ reason: String) -> [String: Entry] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, Entry(keyword: .noEffect(reason), value: .leaf)) })
    }

    /// `key: .warned(reason)`.
    static func warned(_ key: String, _ reason: String) -> [String: Entry] {
        [key: Entry(keyword: .warned(reason), value: .leaf)]
    }

    /// Merges entry tables; a key is written once.
    static func merged(_ parts: [String: Entry]...) -> [String: Entry] {
        parts.reduce(into: [:]) { result, part in result.merge(part) { first, _ in first } }
    }
}

import CacheGenSpec

/// String enums that keep values the spec does not list, so a server that adds a value
/// does not make older apps fail to decode the whole response.
extension ModelTranslator {
    /// The enum for an enum model named `name` (already a Swift name).
    func enumeration(name: String, doc: DocComment, values: [EnumValue]) -> TypeDeclaration {
        let cases = values.enumerated().map { (wire: $1.value, name: SwiftNaming.escaped($1.swiftName ?? SwiftNaming.caseName($1.value, position: $0))) }
        let taken = Set(cases.map(\.name))
        let unknown = ["unknown", "undocumented", "unlisted"].first { !taken.contains($0) } ?? "unknownValue"
        var doc = doc
        if !doc.isEmpty { doc.append("") }
        doc.append("Values the spec does not list decode as `.\(unknown)(_:)` instead of failing.")
        var members: [Declaration] = cases.map { .enumCase(EnumCaseDeclaration(name: $0.name)) }
        members.append(
            .enumCase(
                EnumCaseDeclaration(
                    doc: ["A value the spec does not list, as the server sent it."], name: unknown, associatedType: .named("String"))))
        members.append(
            .property(
                PropertyDeclaration(
                    doc: ["The values the spec lists."], isStatic: true, name: "allCases", type: .array(.named(name)),
                    value: .array(cases.map { .implicitMember($0.name) }))))
        let rawValue = Expression.identifier("rawValue")
        members.append(
            .function(
                FunctionDeclaration(
                    doc: ["The case for a wire value; values the spec does not list become `.\(unknown)`."],
                    name: "init", parameters: [.init(name: "rawValue", type: .named("String"))],
                    body: [
                        .switchOver(
                            rawValue,
                            cases.map { .init(pattern: .value(.string($0.wire)), body: [.assignment(.selfValue, .implicitMember($0.name))]) }
                                + [.init(body: [.assignment(.selfValue, .call(.implicitMember(unknown), [.init(value: rawValue)]))])])
                    ])))
        members.append(
            .property(
                PropertyDeclaration(
                    doc: ["The value as sent on the wire."], name: "rawValue", type: .named("String"),
                    getter: [
                        .switchOver(
                            .selfValue,
                            cases.map { .init(pattern: .value(.implicitMember($0.name)), body: [.return(.string($0.wire))]) }
                                + [.init(pattern: .binding(caseName: unknown, variable: "value"), body: [.return(.identifier("value"))])])
                    ])))
        return TypeDeclaration(
            doc: doc, kind: .enum, name: name,
            conformances: ["RawRepresentable", "Codable", "Sendable", "Hashable", "CaseIterable"], members: members)
    }
}

import CacheGenSpec

/// Unions with nothing on the wire to say which type a value is (OpenAPI `oneOf`/`anyOf`
/// without a `discriminator`): an `indirect enum` with a case per type, decoded by trying
/// each type in the document's order, the first that decodes winning, and encoded as the
/// value of its case, so a value encodes as it was decoded. A value no type decodes is kept
/// as `JSONValue` in a case of its own instead of failing the whole response. An enum model
/// takes only the values it lists here (its unknown case would take every string).
///
/// A union sent as a parameter (every case text, such as `anyOf: [integer, string]`) also
/// conforms to `RequestParameterValue`: its text is its case's.
extension ModelTranslator {
    /// The enum for an untagged union model named `name` (already a Swift name);
    /// `isParameter`: it is sent as a parameter.
    func untaggedUnion(name: String, doc: DocComment, cases: [UntaggedUnionCase], isParameter: Bool = false) -> TypeDeclaration {
        let choices = cases.map { choice in
            var isEnum = false
            if case .model(let model) = choice.type { isEnum = context.models.isEnum(model) }
            return (name: SwiftNaming.escaped(choice.name), type: context.swiftType(choice.type), isEnum: isEnum, spec: choice.type)
        }
        let taken = Set(cases.map(\.name))
        let other = ["other", "unknown", "undocumented"].first { !taken.contains($0) } ?? "otherValue"
        var doc = doc
        if !doc.isEmpty { doc.append("") }
        doc.append("The first case, in the order the spec lists them, whose type decodes the value; other values decode as `.\(other)(_:)` instead of failing.")
        var members: [Declaration] = choices.map { .enumCase(EnumCaseDeclaration(name: $0.name, associatedType: $0.type)) }
        members.append(
            .enumCase(
                EnumCaseDeclaration(
                    doc: ["A value none of the spec's types decodes, as the server sent it."], name: other,
                    associatedType: .named("JSONValue"))))
        let container = Expression.identifier("container")
        let value = Expression.identifier("value")
        func decode(_ type: SwiftType) -> Expression {
            .call(container.dot("decode"), [.init(value: .identifier(OneLine.text(type) + ".self"))])
        }
        members.append(
            .function(
                FunctionDeclaration(
                    doc: ["Decodes the first case whose type decodes the value."], name: "init",
                    parameters: [.init(label: "from", name: "decoder", type: .existential("Decoder"))], isThrowing: true,
                    body: [
                        .variable(
                            isMutable: false, name: "container",
                            value: .try(.call(Expression.identifier("decoder").dot("singleValueContainer"), [])))
                    ]
                        + choices.map { choice in
                            .ifLetTry(
                                name: "value", value: decode(choice.type),
                                condition: choice.isEnum
                                    ? .call(Expression.identifier(OneLine.text(choice.type)).dot("allCases").dot("contains"), [.init(value: value)])
                                    : nil,
                                body: [.assignment(.selfValue, .call(.implicitMember(choice.name), [.init(value: value)])), .returnVoid])
                        } + [
                            .assignment(.selfValue, .call(.implicitMember(other), [.init(value: .try(decode(.named("JSONValue"))))]))
                        ])))
        members.append(
            .function(
                FunctionDeclaration(
                    doc: ["Encodes the value of its case."], name: "encode",
                    parameters: [.init(label: "to", name: "encoder", type: .existential("Encoder"))], isThrowing: true,
                    body: [
                        .variable(
                            isMutable: true, name: "container", value: .call(Expression.identifier("encoder").dot("singleValueContainer"), [])),
                        .switchOver(
                            .selfValue,
                            (choices.map(\.name) + [other]).map { caseName in
                                .init(
                                    pattern: .binding(caseName: caseName, variable: "value"),
                                    body: [.expression(.try(.call(container.dot("encode"), [.init(value: value)])))])
                            }),
                    ])))
        var conformances = ["Codable", "Sendable", "Equatable"]
        if isParameter {
            conformances.append("RequestParameterValue")
            members.append(
                .property(
                    PropertyDeclaration(
                        doc: ["The value's text in a path, query item or header: its case's."], name: "requestParameterText",
                        type: .named("String"),
                        getter: [
                            .switchOver(
                                .selfValue,
                                choices.map { choice in
                                    .init(pattern: .binding(caseName: choice.name, variable: "value"), body: [.return(parameterText(value, type: choice.spec))])
                                } + [
                                    .init(
                                        pattern: .binding(caseName: other, variable: "value"), body: [.return(value.dot("requestParameterText"))])
                                ])
                        ])))
        }
        return TypeDeclaration(
            doc: doc, kind: .enum, isIndirect: true, name: name, conformances: conformances, members: members)
    }

    /// The text of a case's value: an enum's raw value, an array of enums' raw values joined
    /// by commas, any other value's `requestParameterText`.
    private func parameterText(_ value: Expression, type: TypeRef) -> Expression {
        switch type {
        case .model(let model) where context.models.isEnum(model):
            return value.dot("rawValue")
        case .array(.model(let model)) where context.models.isEnum(model):
            return .call(value.dot("map"), [.init(value: .keyPath("rawValue"))]).dot("requestParameterText")
        default:
            return value.dot("requestParameterText")
        }
    }
}

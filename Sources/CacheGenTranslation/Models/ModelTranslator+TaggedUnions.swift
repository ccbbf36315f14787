import CacheGenReading
import CacheGenSpec

/// Unions of models told apart by one property (OpenAPI `oneOf` with a `discriminator`):
/// an `indirect enum` with a case per value whose payload is the model, decoded from the
/// same object, and an unknown case that keeps a value the spec does not list, so a
/// server that adds a variant does not make older apps fail to decode the response.
extension ModelTranslator {
    /// The enum for a union model named `name` (already a Swift name).
    func taggedUnion(name: String, doc: DocComment, union: TaggedUnion) -> TypeDeclaration {
        let cases = union.cases.enumerated().map { position, choice in
            (wire: choice.value, name: SwiftNaming.escaped(SwiftNaming.caseName(choice.value, position: position)),
             type: context.swiftType(.model(choice.model)))
        }
        let taken = Set(cases.map(\.name))
        let unknown = ["unknown", "undocumented", "unlisted"].first { !taken.contains($0) } ?? "unknownValue"
        let property = quoted(union.propertyName)
        var doc = doc
        if !doc.isEmpty { doc.append("") }
        let fallback = union.fallback.flatMap { value in cases.first { $0.wire == value } }
        if let fallback {
            doc.append("Chosen by the \(property) property; without it, or with a value not listed, decodes as `.\(fallback.name)(_:)`.")
        } else {
            doc.append("Chosen by the \(property) property; other values decode as `.\(unknown)(_:)` instead of failing.")
        }
        var members: [Declaration] = cases.map { .enumCase(EnumCaseDeclaration(name: $0.name, associatedType: $0.type)) }
        members.append(
            .enumCase(
                EnumCaseDeclaration(
                    doc: ["A \(property) the spec does not list, as the server sent it."], name: unknown,
                    associatedType: .named("String"))))
        members.append(
            .type(
                TypeDeclaration(
                    visibility: .hidden, kind: .enum, name: "DiscriminatorKeys", conformances: ["String", "CodingKey"],
                    members: [.enumCase(EnumCaseDeclaration(name: "discriminator", rawValue: union.propertyName))])))
        let keys = Expression.identifier("DiscriminatorKeys").dot("self")
        let value = Expression.identifier("value")
        let decoder = Expression.identifier("decoder")
        members.append(
            .function(
                FunctionDeclaration(
                    doc: ["Decodes the model that the \(property) property names."], name: "init",
                    parameters: [.init(label: "from", name: "decoder", type: .existential("Decoder"))], isThrowing: true,
                    body: [
                        .variable(
                            isMutable: false, name: "container",
                            value: .try(.call(decoder.dot("container"), [.init(label: "keyedBy", value: keys)]))),
                        .variable(
                            isMutable: false, name: "value",
                            value: fallback == nil
                                ? .try(
                                    .call(
                                        Expression.identifier("container").dot("decode"),
                                        [.init(value: Expression.identifier("String").dot("self")),
                                         .init(label: "forKey", value: .implicitMember("discriminator"))]))
                                : .try(
                                    .infix(
                                        .call(
                                            Expression.identifier("container").dot("decodeIfPresent"),
                                            [.init(value: Expression.identifier("String").dot("self")),
                                             .init(label: "forKey", value: .implicitMember("discriminator"))]),
                                        "??", .string("")))),
                        .switchOver(
                            value,
                            cases.map { choice in
                                .init(
                                    pattern: .value(.string(choice.wire)),
                                    body: [
                                        .assignment(
                                            .selfValue,
                                            .call(
                                                .implicitMember(choice.name),
                                                [.init(value: .try(.call(typeExpression(choice.type), [.init(label: "from", value: decoder)])))]))
                                    ])
                            } + [
                                .init(body: [
                                    fallback.map { choice in
                                        .assignment(
                                            .selfValue,
                                            .call(
                                                .implicitMember(choice.name),
                                                [.init(value: .try(.call(typeExpression(choice.type), [.init(label: "from", value: decoder)])))]))
                                    } ?? .assignment(.selfValue, .call(.implicitMember(unknown), [.init(value: value)]))
                                ])
                            ]),
                    ])))
        members.append(.function(encode(cases: cases.map { ($0.wire, $0.name) }, unknown: unknown, property: property, keys: keys)))
        return TypeDeclaration(
            doc: doc, kind: .enum, isIndirect: true, name: name, conformances: ["Codable", "Sendable", "Equatable"],
            members: members)
    }

    /// `encode(to:)`: the model, then the property's value for its case.
    private func encode(cases: [(wire: String, name: String)], unknown: String, property: String, keys: Expression)
        -> FunctionDeclaration
    {
        let encoder = Expression.identifier("encoder")
        let container = Expression.identifier("container")
        func writeTag(_ tag: Expression) -> [Statement] {
            [
                .variable(isMutable: true, name: "container", value: .call(encoder.dot("container"), [.init(label: "keyedBy", value: keys)])),
                .expression(
                    .try(.call(container.dot("encode"), [.init(value: tag), .init(label: "forKey", value: .implicitMember("discriminator"))]))),
            ]
        }
        let value = Expression.identifier("value")
        return FunctionDeclaration(
            doc: ["Encodes the model with the \(property) property of its case."], name: "encode",
            parameters: [.init(label: "to", name: "encoder", type: .existential("Encoder"))], isThrowing: true,
            body: [
                .switchOver(
                    .selfValue,
                    cases.map { choice in
                        .init(
                            pattern: .binding(caseName: choice.name, variable: "value"),
                            body: [.expression(.try(.call(value.dot("encode"), [.init(label: "to", value: encoder)])))]
                                + writeTag(.string(choice.wire)))
                    } + [.init(pattern: .binding(caseName: unknown, variable: "value"), body: writeTag(value))])
            ])
    }

    /// A model type as an expression, to call its initializer.
    private func typeExpression(_ type: SwiftType) -> Expression {
        if case .named(let name) = type { return .identifier(name) }
        return .identifier("Never")
    }
}

/// Models: a `Codable` struct per object, with a memberwise initializer; enums are made by `Translator+Enums.swift`, unions of models
/// by `Translator+TaggedUnions.swift` and `Translator+UntaggedUnions.swift`.
extension Translator {
    func model(_ model: Model) -> Declaration {
        let name = typeName(of: model.name.name)
        let doc = model.description.map(SwiftLiteral.commentLines) ?? []
        switch model.kind {
        case .enumeration(let values):
            return .type(enumeration(name: name, doc: doc, values: values))
        case .taggedUnion(let union):
            return .type(taggedUnion(name: name, doc: doc, union: union))
        case .untaggedUnion(let cases):
            return .type(untaggedUnion(name: name, doc: doc, cases: cases))
        case .object(let properties):
            return .type(structure(name: name, doc: doc, properties: properties, indirect: storage.indirectProperties(of: model)))
        }
    }

    /// `indirect`: the spec names of properties stored out of line (`ModelStorage`).
    private func structure(name: String, doc: DocComment, properties: [Property], indirect: Set<String>) -> TypeDeclaration {
        let names = properties.map { SwiftNaming.memberName($0.name.name) }
        let types = properties.map { swiftType($0.type) }
        var members: [Declaration] = properties.indices.map { index in
            .property(
                PropertyDeclaration(
                    doc: properties[index].description.map(SwiftLiteral.commentLines) ?? [],
                    attributes: indirect.contains(properties[index].name.name) ? ["@Indirect"] : [], isMutable: true,
                    name: SwiftNaming.escaped(names[index]), type: types[index]))
        }
        members.append(.function(memberwiseInit(properties, names: names, types: types)))
        if !properties.isEmpty {
            members.append(.function(decoding(properties, names: names, types: types)))
            members.append(.function(encoding(properties, names: names)))
        }
        return TypeDeclaration(
            doc: doc, kind: .struct, name: name, conformances: ["Codable", "Sendable", "Equatable"], members: members)
    }

    /// `names` and `types`: each property's Swift name (unescaped) and type.
    private func memberwiseInit(_ properties: [Property], names: [String], types: [SwiftType]) -> FunctionDeclaration {
        let hasOptionals = properties.contains { $0.type.isOptional }
        return FunctionDeclaration(
            doc: [hasOptionals ? "Creates a value; optional properties default to `nil`." : "Creates a value."],
            name: "init",
            parameters: properties.indices.map { index in
                FunctionDeclaration.Parameter(
                    swiftName: names[index], type: types[index],
                    defaultValue: properties[index].type.isOptional ? .literal(.nil) : nil)
            },
            body: names.map { name in
                .assignment(Expression.selfValue.dot(SwiftNaming.escaped(name)), .identifier(SwiftNaming.parameterValue(name)))
            })
    }

    // `Codable` is written out rather than synthesised: the synthesised form brings a
    // `CodingKeys` enum a model with conformances of its own (`CodingKey`, `Hashable`, string
    // conversions): 30 of a model's 83 LLVM functions (issue 19 item 2). Every model shares
    // `WireKey` instead. `Equatable` stays synthesised: written out, 166 models' `==`
    // overloads made every comparison in the module slower to type-check (5.1 s against 2.2 s).

    /// `init(from:)`: each property from its wire name; optionals may be missing or `null`.
    private func decoding(_ properties: [Property], names: [String], types: [SwiftType]) -> FunctionDeclaration {
        let container = Expression.identifier("container")
        return FunctionDeclaration(
            doc: ["Reads the value from its wire names."],
            name: "init",
            parameters: [.init(label: "from", name: "decoder", type: .existential("Decoder"))],
            isThrowing: true,
            body: [
                .variable(
                    isMutable: false, name: "container",
                    value: .try(.call(Expression.identifier("decoder").dot("container"), [.init(label: "keyedBy", value: .identifier("WireKey.self"))])))
            ]
                + properties.indices.map { index in
                    let optional = properties[index].type.isOptional
                    var type = types[index]
                    if optional, case .optional(let wrapped) = type { type = wrapped }
                    return .assignment(
                        Expression.selfValue.dot(SwiftNaming.escaped(names[index])),
                        .try(
                            .call(
                                container.dot(optional ? "decodeIfPresent" : "decode"),
                                [.init(value: .identifier(OneLine.text(type) + ".self")), .init(label: "forKey", value: key(properties[index]))])))
                })
    }

    /// `encode(to:)`: each property under its wire name; `nil` optionals are left out.
    private func encoding(_ properties: [Property], names: [String]) -> FunctionDeclaration {
        let container = Expression.identifier("container")
        return FunctionDeclaration(
            doc: ["Writes the value under its wire names."],
            name: "encode",
            parameters: [.init(label: "to", name: "encoder", type: .existential("Encoder"))],
            isThrowing: true,
            body: [
                .variable(
                    isMutable: true, name: "container",
                    value: .call(Expression.identifier("encoder").dot("container"), [.init(label: "keyedBy", value: .identifier("WireKey.self"))]))
            ]
                + properties.indices.map { index in
                    .expression(
                        .try(
                            .call(
                                container.dot(properties[index].type.isOptional ? "encodeIfPresent" : "encode"),
                                [
                                    .init(value: Expression.selfValue.dot(SwiftNaming.escaped(names[index]))),
                                    .init(label: "forKey", value: key(properties[index])),
                                ])))
                })
    }

    /// `WireKey("name")`.
    private func key(_ property: Property) -> Expression {
        .call(.identifier("WireKey"), [.init(value: .string(property.wireName))])
    }
}

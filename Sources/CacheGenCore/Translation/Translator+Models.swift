/// Models: a `Codable` struct per object, with a memberwise initializer and coding keys
/// where wire names differ; enums are made by `Translator+Enums.swift`, unions of models
/// by `Translator+TaggedUnions.swift`.
extension Translator {
    func model(_ model: Model) -> Declaration {
        let name = SwiftNaming.typeName(model.name.name)
        let doc = model.description.map(SwiftLiteral.commentLines) ?? []
        switch model.kind {
        case .enumeration(let values):
            return .type(enumeration(name: name, doc: doc, values: values))
        case .taggedUnion(let union):
            return .type(taggedUnion(name: name, doc: doc, union: union))
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
        if properties.indices.contains(where: { names[$0] != properties[$0].wireName }) {
            let keys = zip(properties, names).map { property, caseName -> Declaration in
                .enumCase(
                    EnumCaseDeclaration(
                        name: SwiftNaming.escaped(caseName),
                        rawValue: caseName == property.wireName ? nil : property.wireName))
            }
            members.append(
                .type(
                    TypeDeclaration(
                        visibility: .hidden, kind: .enum, name: "CodingKeys", conformances: ["String", "CodingKey"],
                        members: keys)))
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
}

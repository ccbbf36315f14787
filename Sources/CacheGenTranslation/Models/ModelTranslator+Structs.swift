import CacheGenSpec

/// Object models: a `Codable` struct per object, with a memberwise initializer, `Codable`
/// written out, properties in a cycle boxed (`ModelStorage`) and the other keys kept.
extension ModelTranslator {
    /// A part's type with its header fields: `MultipartValue<T>`, for each element of an
    /// array (one part each), inside an optional.
    private static func headed(_ type: SwiftType) -> SwiftType {
        switch type {
        case .optional(let wrapped): .optional(headed(wrapped))
        case .array(let element): .array(headed(element))
        default: .generic("MultipartValue", [type])
        }
    }

    /// The doc comment lines naming the header fields declared for a property's part.
    private static func partHeadersDoc(_ property: Property) -> DocComment {
        guard !property.partHeaders.isEmpty else { return [] }
        let names = property.partHeaders.map { "`\($0.name)`" + ($0.isRequired ? " (required)" : "") }
        return ["The part's header fields: " + names.joined(separator: ", ") + "."]
    }

    /// `indirect`: the spec names of properties stored out of line (`ModelStorage`); `extra`:
    /// the keys other than the properties, kept in a dictionary after them.
    func structure(
        name: String, doc: DocComment, properties: [Property], extra: AdditionalProperties?, indirect: Set<String>
    ) -> TypeDeclaration {
        let names = properties.map { SwiftNaming.memberName($0.name.name) }
        let types = properties.map { $0.partHeaders.isEmpty ? context.swiftType($0.type) : Self.headed(context.swiftType($0.type)) }
        let boxed = properties.map { indirect.contains($0.name.name) }
        var members: [Declaration] = properties.indices.flatMap { index -> [Declaration] in
            let described = properties[index].description.map(SwiftLiteral.commentLines) ?? []
            let headers = Self.partHeadersDoc(properties[index])
            let doc = described + (described.isEmpty || headers.isEmpty ? [] : [""]) + headers
            let name = SwiftNaming.escaped(names[index])
            guard boxed[index] else {
                return [.property(PropertyDeclaration(doc: doc, isMutable: true, name: name, type: types[index]))]
            }
            // `var parent: Category? { get set }` over `private var _parent: Indirect<Category?>`.
            // Written out rather than as `@Indirect var parent`: the property wrapper's backing
            // initializer, init accessor and backing accessors are 5 more functions a property.
            // At 500 endpoints in a cycle that is 4% of the functions and about 5% of the CPU
            // of a clean build.
            let value = Expression.identifier(Self.boxName(names[index])).dot("wrappedValue")
            return [
                .property(
                    PropertyDeclaration(
                        doc: doc, name: name, type: types[index], getter: [.expression(value)],
                        setter: .assignment(value, .identifier("newValue")))),
                .property(
                    PropertyDeclaration(
                        visibility: .hidden, isMutable: true, name: Self.boxName(names[index]),
                        type: .generic("Indirect", [types[index]]))),
            ]
        }
        if let extra {
            members.append(
                .property(
                    PropertyDeclaration(
                        doc: ["Every other key of the object, by its name on the wire."], isMutable: true,
                        name: SwiftNaming.escaped(extra.name), type: extraType(extra))))
        }
        members.append(.function(memberwiseInit(properties, names: names, types: types, boxed: boxed, extra: extra)))
        if !properties.isEmpty || extra != nil {
            members.append(.function(decoding(properties, names: names, types: types, boxed: boxed, extra: extra)))
            members.append(.function(encoding(properties, names: names, extra: extra)))
        }
        return TypeDeclaration(
            doc: doc, kind: .struct, name: name, conformances: ["Codable", "Sendable", "Equatable"], members: members)
    }

    /// `[String: T]`, the type of the property holding the other keys.
    private func extraType(_ extra: AdditionalProperties) -> SwiftType {
        .dictionary(key: .named("String"), value: context.swiftType(extra.type))
    }

    /// `_parent`: where a property stored out of line keeps its box.
    private static func boxName(_ name: String) -> String { "_" + name }

    /// `self.name = value`, or `self._name = Indirect(wrappedValue: value)` for a boxed
    /// property (an initializer sets the stored property, not the computed one).
    private func initialization(_ name: String, boxed: Bool, value: Expression) -> Statement {
        guard boxed else { return .assignment(Expression.selfValue.dot(SwiftNaming.escaped(name)), value) }
        return .assignment(
            Expression.selfValue.dot(Self.boxName(name)), .call(.identifier("Indirect"), [.init(label: "wrappedValue", value: value)]))
    }

    /// `names` and `types`: each property's Swift name (unescaped) and type; `boxed`: whether
    /// it is stored out of line; the other keys default to none.
    private func memberwiseInit(
        _ properties: [Property], names: [String], types: [SwiftType], boxed: [Bool], extra: AdditionalProperties?
    ) -> FunctionDeclaration {
        let hasOptionals = properties.contains { $0.type.isOptional }
        var doc = hasOptionals ? "Creates a value; optional properties default to `nil`" : "Creates a value"
        if let extra { doc += hasOptionals ? " and `\(extra.name)` to none" : "; `\(extra.name)` defaults to none" }
        var parameters = properties.indices.map { index in
            FunctionDeclaration.Parameter(
                swiftName: names[index], type: types[index],
                defaultValue: properties[index].type.isOptional ? .literal(.nil) : nil)
        }
        var assigned = Array(zip(names, boxed))
        if let extra {
            parameters.append(FunctionDeclaration.Parameter(swiftName: extra.name, type: extraType(extra), defaultValue: .identifier("[:]")))
            assigned.append((extra.name, false))
        }
        return FunctionDeclaration(
            doc: [doc + "."],
            name: "init",
            parameters: parameters,
            body: assigned.map { name, boxed in
                initialization(name, boxed: boxed, value: .identifier(SwiftNaming.parameterValue(name)))
            })
    }

    /// `["id", "name"]`: the wire names the properties take, which the other keys exclude.
    private func wireNames(_ properties: [Property]) -> Expression {
        .array(properties.map { .string($0.wireName) }, wrapping: .whenLong)
    }

    // `Codable` is written out rather than synthesised: the synthesised form brings a
    // `CodingKeys` enum a model with conformances of its own (`CodingKey`, `Hashable`, string
    // conversions): 30 of a model's 83 LLVM functions (issue 19 item 2). Every model shares
    // `WireKey` instead. `Equatable` stays synthesised: written out, 166 models' `==`
    // overloads made every comparison in the module slower to type-check (5.1 s against 2.2 s).

    /// `init(from:)`: each property from its wire name; optionals may be missing or `null`;
    /// then every other key into `extra`'s dictionary.
    private func decoding(
        _ properties: [Property], names: [String], types: [SwiftType], boxed: [Bool], extra: AdditionalProperties?
    ) -> FunctionDeclaration {
        let container = Expression.identifier("container")
        let others: [Statement] = extra.map { extra in
            [
                .assignment(
                    Expression.selfValue.dot(SwiftNaming.escaped(extra.name)),
                    .try(
                        .call(
                            container.dot("decodeAdditionalProperties"),
                            [
                                .init(value: .identifier(OneLine.text(context.swiftType(extra.type)) + ".self")),
                                .init(label: "excluding", value: wireNames(properties)),
                            ], wrapping: .whenLong)))
            ]
        } ?? []
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
                    return initialization(
                        names[index], boxed: boxed[index],
                        value: .try(
                            .call(
                                container.dot(optional ? "decodeIfPresent" : "decode"),
                                [.init(value: .identifier(OneLine.text(type) + ".self")), .init(label: "forKey", value: key(properties[index]))])))
                } + others)
    }

    /// `encode(to:)`: each property under its wire name; `nil` optionals are left out; then
    /// the other keys, sorted, none of them a property's.
    private func encoding(_ properties: [Property], names: [String], extra: AdditionalProperties?) -> FunctionDeclaration {
        let container = Expression.identifier("container")
        let others: [Statement] = extra.map { extra in
            [
                .expression(
                    .try(
                        .call(
                            container.dot("encodeAdditionalProperties"),
                            [
                                .init(value: Expression.selfValue.dot(SwiftNaming.escaped(extra.name))),
                                .init(label: "excluding", value: wireNames(properties)),
                            ], wrapping: .whenLong)))
            ]
        } ?? []
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
                } + others)
    }

    /// `WireKey("name")`.
    private func key(_ property: Property) -> Expression {
        .call(.identifier("WireKey"), [.init(value: .string(property.wireName))])
    }
}

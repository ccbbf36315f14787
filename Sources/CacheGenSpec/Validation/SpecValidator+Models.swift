import CacheGenReading

/// Model rules: properties (names, types, wire names), enum values, and the cases of tagged
/// and untagged unions.
extension SpecValidator {
    package mutating func checkProperties(_ properties: [Property], of model: Model) {
        if properties.isEmpty, model.additionalProperties == nil {
            warn("model \(quoted(model.name.name)) has no properties", at: model.name.location)
        }
        // Each name's first property, by its name as written.
        var swiftNames: [String: Named] = [:]
        var wireNames: [String: Named] = [:]
        for property in properties {
            checkTypeReference(property.type, at: property.typeLocation)
            let swiftName = SwiftNaming.memberName(property.name.name)
            if SwiftNaming.isNameless(property.name.name) {
                report(
                    Self.nameless(
                        property.name.name, "property", advice: "name it in the spec and keep the wire name with \"json\""),
                    at: property.name.location)
            } else if let first = swiftNames[swiftName] {
                report(
                    "properties \(quoted(first.name)) (\(first.location.line):\(first.location.column)) and \(quoted(property.name.name)) both become \(swiftName) in Swift; rename one and keep the wire name with \"json\"",
                    at: property.name.location)
            } else {
                swiftNames[swiftName] = property.name
            }
            if let first = wireNames[property.wireName] {
                report(
                    "properties \(quoted(first.name)) and \(quoted(property.name.name)) both use the JSON name \(quoted(property.wireName))",
                    at: property.name.location)
            } else {
                wireNames[property.wireName] = property.name
            }
        }
        if let identity = model.identity { checkIdentity(identity, properties, of: model) }
    }

    /// `"identity"` names a property (by its spec or JSON name) that is a string, an int or
    /// a uuid and always present, so that every value of the model has one.
    private mutating func checkIdentity(_ identity: Named, _ properties: [Property], of model: Model) {
        guard let property = properties.first(where: { $0.name.name == identity.name || $0.wireName == identity.name }) else {
            report(
                "\"identity\" of model \(quoted(model.name.name)) names no property: \(quoted(identity.name))"
                    + Suggestion.hint(for: identity.name, among: properties.map(\.name.name), noun: "properties"),
                at: identity.location)
            return
        }
        switch property.type {
        case .scalar(.string), .scalar(.int), .scalar(.uuid):
            break
        default:
            report(
                "\"identity\" of model \(quoted(model.name.name)) must be a string, int or uuid property that is always present; \(quoted(property.name.name)) is \(property.type)",
                at: identity.location)
        }
    }

    package mutating func checkEnumValues(_ values: [EnumValue], of model: Model) {
        if values.isEmpty {
            report("enum \(quoted(model.name.name)) has no values; list at least one", at: model.name.location)
        }
        var seen: [String: EnumValue] = [:]
        var caseNames: [String: EnumValue] = [:]
        for (position, value) in values.enumerated() {
            if value.value.isEmpty, value.swiftName == nil {
                report("enum \(quoted(model.name.name)) has an empty value", at: value.location)
                continue
            }
            if let first = seen[value.value] {
                report(
                    "enum \(quoted(model.name.name)) lists \(quoted(value.value)) twice (first at \(first.location.line):\(first.location.column))",
                    at: value.location)
                continue
            }
            seen[value.value] = value
            let caseName = value.swiftName ?? SwiftNaming.caseName(value.value, position: position)
            if let first = caseNames[caseName] {
                report(
                    "enum values \(quoted(first.value)) (\(first.location.line):\(first.location.column)) and \(quoted(value.value)) both become the case \(caseName) in Swift; cachegen cannot generate both",
                    at: value.location)
            } else {
                caseNames[caseName] = value
            }
        }
    }

    /// Each choice names a declared model, and values become distinct Swift cases as an
    /// enum's do.
    package mutating func checkTaggedUnion(_ union: TaggedUnion, of model: Model) {
        for choice in union.cases { checkTypeReference(.model(choice.model), at: choice.location) }
        checkEnumValues(union.cases.map { EnumValue(value: $0.value, location: $0.location) }, of: model)
    }

    /// Each choice's type is declared, and no two choices share a case name.
    package mutating func checkUntaggedUnion(_ cases: [UntaggedUnionCase]) {
        var names: [String: UntaggedUnionCase] = [:]
        for choice in cases {
            checkTypeReference(choice.type, at: choice.location)
            if let first = names[choice.name] {
                report(
                    "union cases at \(first.location.line):\(first.location.column) and here are both named \(quoted(choice.name)); cachegen cannot generate both",
                    at: choice.location)
            } else {
                names[choice.name] = choice
            }
        }
    }
}

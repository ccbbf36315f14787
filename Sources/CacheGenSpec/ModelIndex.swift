/// The spec's models by name, built once: every stage looks models up by name for each
/// type it meets, and a spec may declare hundreds.
///
/// When two models share a name (an error the validator reports), the first one counts.
package struct ModelIndex: Sendable {
    private let models: [String: Model]

    package init(_ spec: Spec) {
        models = Dictionary(spec.models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The model declared under `name`.
    package subscript(name: String) -> Model? { models[name] }

    /// Whether `name` is declared as a model.
    package func contains(_ name: String) -> Bool { models[name] != nil }

    /// Whether `name` is declared as an enum model.
    package func isEnum(_ name: String) -> Bool {
        guard case .enumeration = models[name]?.kind else { return false }
        return true
    }

    /// Whether a value of `type` can be sent as text in a path segment, query item or
    /// header: a scalar, an enum, or a union whose every case is one of these or an array of
    /// them (`anyOf: [integer, string]`, sent as its case's text); not bytes, a file, any
    /// JSON, an object or a collection.
    package func isTextValue(_ type: TypeRef) -> Bool {
        isTextValue(type, visiting: [])
    }

    private func isTextValue(_ type: TypeRef, visiting: Set<String>) -> Bool {
        switch type {
        case .scalar(.data), .scalar(.file), .scalar(.json): return false
        case .scalar: return true
        case .model(let name):
            switch models[name]?.kind {
            case .enumeration?: return true
            case .untaggedUnion(let cases)?:
                guard !visiting.contains(name) else { return false }
                let inner = visiting.union([name])
                return cases.allSatisfy { choice in
                    if case .array(let element) = choice.type, element.unwrapped == element { return isTextValue(element, visiting: inner) }
                    return isTextValue(choice.type, visiting: inner)
                }
            default: return false
            }
        default: return false
        }
    }

    /// Whether a parameter can be sent as its place and style say: a text value; an array of
    /// text values (a query's as its style says, a header's or path's joined by commas); in
    /// the query, an object whose every property is a text value or a dictionary of text
    /// values, one item per property or entry (`deepObject`, or `form` exploded).
    package func isSendable(_ parameter: Parameter) -> Bool {
        let type = parameter.type.unwrapped
        if isTextValue(type) { return true }
        switch parameter.style {
        case .json?: return true
        case .objectJoined?, .objectPairs?: return isFlatObject(type)
        case .formObject?, .deepObject?: if type == .scalar(.json) { return parameter.place == .query }
        default: break
        }
        switch type {
        case .array(let element):
            return isTextValue(element)
        case .dictionary(let value):
            return parameter.place == .query && (parameter.style == .deepObject || parameter.style == .formObject) && isTextValue(value)
        case .model:
            return parameter.place == .query && (parameter.style == .deepObject || parameter.style == .formObject)
                && objectProperties(type) != nil
        default:
            return false
        }
    }

    /// Whether a value of `type` is an object whose every value is text (an object model, a
    /// dictionary), or any JSON, which the object styles write as one text.
    package func isFlatObject(_ type: TypeRef) -> Bool {
        switch type {
        case .scalar(.json): return true
        case .dictionary(let value): return isTextValue(value.unwrapped)
        default: return objectProperties(type) != nil
        }
    }

    /// Whether a value of `type` nests, so that no OpenAPI style says how it is written as
    /// text: an array of anything but text values, an object or dictionary with something
    /// other than a text value inside, or a union that is not one text value. (A flat object
    /// or dictionary, or any JSON, has a style; whether cachegen writes it is `isSendable`.)
    package func nests(_ type: TypeRef) -> Bool {
        switch type.unwrapped {
        case .array(let element): return !isTextValue(element.unwrapped)
        case .dictionary(let value): return !isTextValue(value.unwrapped)
        case .model(let name):
            switch models[name]?.kind {
            case .object(let properties)?: return properties.contains { !isTextValue($0.type.unwrapped) }
            case .taggedUnion?: return true
            case .untaggedUnion?: return !isTextValue(type.unwrapped)
            default: return false
            }
        default: return false
        }
    }

    /// The properties of an object model whose every property is a text value, which a
    /// `deepObject` query parameter sends as `name[property]=value` and an exploded `form`
    /// one as `property=value`; `nil` for any other type.
    package func objectProperties(_ type: TypeRef) -> [Property]? {
        guard case .model(let name) = type.unwrapped, case .object(let properties)? = models[name]?.kind,
            !properties.isEmpty, properties.allSatisfy({ isTextValue($0.type.unwrapped) })
        else { return nil }
        return properties
    }

    /// The untagged unions a value of `type` sends as text, directly, in an array or
    /// dictionary, as a property of an object sent property by property, or as a case of
    /// another such union: each needs its `requestParameterText`.
    package func textUnions(in type: TypeRef, into found: inout Set<String>) {
        switch type {
        case .scalar: return
        case .optional(let inner), .array(let inner), .dictionary(let inner): textUnions(in: inner, into: &found)
        case .model(let name):
            switch models[name]?.kind {
            case .untaggedUnion(let cases)?:
                guard isTextValue(type), found.insert(name).inserted else { return }
                for choice in cases { textUnions(in: choice.type, into: &found) }
            case .object?:
                for property in objectProperties(type) ?? [] { textUnions(in: property.type, into: &found) }
            default: return
            }
        }
    }
}

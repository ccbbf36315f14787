import CacheGenReading

/// A model: an object with properties, or a string enum.
public struct Model: Sendable, Hashable {
    /// The model's name and where it is declared.
    public var name: Named
    /// Its description, for the doc comment.
    public var description: String?
    /// Properties or enum values.
    public var kind: Kind
    /// For an object, the keys other than its properties, when they are kept.
    public var additionalProperties: AdditionalProperties? = nil
    /// For an object, the property that identifies it (`"identity": "id"`, OpenAPI's
    /// `x-cachegen-identity`), with where it is named: the runtime then replaces it by that
    /// value in every cached value that holds it.
    public var identity: Named? = nil

    /// What a model is.
    public enum Kind: Sendable, Hashable {
        /// A struct.
        case object([Property])
        /// A string enum.
        case enumeration([EnumValue])
        /// One of several object models, told apart by a property's value (an OpenAPI
        /// `oneOf`/`anyOf` with a `discriminator`): an enum with a payload per model.
        case taggedUnion(TaggedUnion)
        /// One of several types with nothing on the wire to say which (an OpenAPI
        /// `oneOf`/`anyOf` without a `discriminator`): an enum with a case per type, the
        /// first that decodes winning, and a case that keeps any other value as JSON.
        case untaggedUnion([UntaggedUnionCase])
    }

    /// The memberwise initializer, for the package's other modules.
    package init(
        name: Named, description: String? = nil, kind: Kind, additionalProperties: AdditionalProperties? = nil,
        identity: Named? = nil
    ) {
        self.name = name
        self.description = description
        self.kind = kind
        self.additionalProperties = additionalProperties
        self.identity = identity
    }
}

/// One choice of an untagged union: a case name and the type it decodes as.
public struct UntaggedUnionCase: Sendable, Hashable {
    /// The case's spec name, a lowerCamelCase identifier.
    public var name: String
    /// The type the value decodes as.
    public var type: TypeRef
    /// Where the choice is written.
    public var location: SourceLocation

    /// The memberwise initializer, for the package's other modules.
    package init(name: String, type: TypeRef, location: SourceLocation) {
        self.name = name
        self.type = type
        self.location = location
    }
}

/// A choice between models that one JSON property names, such as `"kind": "walk"`.
public struct TaggedUnion: Sendable, Hashable {
    /// The JSON name of the property whose value says which model follows.
    public var propertyName: String
    /// The choices, in document order.
    public var cases: [Case]
    /// The value of the case an object decodes as when the property is missing or has a
    /// value no case lists (OpenAPI 3.2's `defaultMapping`); `nil` keeps such a value as it is.
    public var fallback: String?

    /// One choice: the property's value and the model the rest of the object decodes as.
    public struct Case: Sendable, Hashable {
        /// The property's value on the wire.
        public var value: String
        /// The model the object decodes as.
        public var model: String
        /// Where the choice is written.
        public var location: SourceLocation

        /// The memberwise initializer, for the package's other modules.
        package init(value: String, model: String, location: SourceLocation) {
            self.value = value
            self.model = model
            self.location = location
        }
    }

    /// The memberwise initializer, for the package's other modules.
    package init(propertyName: String, cases: [Case], fallback: String? = nil) {
        self.propertyName = propertyName
        self.cases = cases
        self.fallback = fallback
    }
}

/// One property of an object model.
public struct Property: Sendable, Hashable {
    /// The spec name and where it is.
    public var name: Named
    /// The type.
    public var type: TypeRef
    /// Where the type is written.
    public var typeLocation: SourceLocation
    /// Its description, for the doc comment.
    public var description: String?
    /// The JSON name, after `json` and `defaults.jsonKeys`.
    public var wireName: String
    /// The header fields an OpenAPI document declares for this property's multipart part
    /// (`encoding.<part>.headers`); when there are some, the property (each element of an
    /// array) is a `MultipartValue`, which carries them both ways.
    public var partHeaders: [PartHeader] = []

    /// The memberwise initializer, for the package's other modules.
    package init(name: Named, type: TypeRef, typeLocation: SourceLocation, description: String? = nil, wireName: String) {
        self.name = name
        self.type = type
        self.typeLocation = typeLocation
        self.description = description
        self.wireName = wireName
    }
}

/// A header field declared for one part of a multipart body.
public struct PartHeader: Sendable, Hashable {
    /// The field's name as the document writes it.
    public var name: String
    /// Whether the document marks it `required`.
    public var isRequired: Bool

    /// The memberwise initializer, for the package's other modules.
    package init(name: String, isRequired: Bool) {
        self.name = name
        self.isRequired = isRequired
    }
}

/// One value of an enum model.
public struct EnumValue: Sendable, Hashable {
    /// The raw value as sent on the wire.
    public var value: String
    /// Where it is written.
    public var location: SourceLocation
    /// The Swift case name when the OpenAPI front stage chose one (the value has no letter or
    /// digit, or another value's case name took it); `nil` makes it from `value`.
    public var swiftName: String? = nil

    /// The memberwise initializer, for the package's other modules.
    package init(value: String, location: SourceLocation, swiftName: String? = nil) {
        self.value = value
        self.location = location
        self.swiftName = swiftName
    }
}

extension JSONNode.Value {
    /// The kind of value with its article, for messages such as
    /// "expected a string, found a number".
    public var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

extension JSONNode {
    /// The kind of value with its article, for messages such as
    /// "expected a string, found a number".
    public var kindName: String { value.kindName }

    /// The members in file order when this is an object; `nil` for any other kind.
    public var members: [JSONMember]? {
        guard case .object(let members) = value else { return nil }
        return members
    }

    /// The elements when this is an array; `nil` for any other kind.
    public var elements: [JSONNode]? {
        guard case .array(let elements) = value else { return nil }
        return elements
    }

    /// The text when this is a string; `nil` for any other kind.
    public var stringValue: String? {
        guard case .string(let text) = value else { return nil }
        return text
    }

    /// The value when this is `true` or `false`; `nil` for any other kind.
    public var boolValue: Bool? {
        guard case .bool(let flag) = value else { return nil }
        return flag
    }

    /// The value when this is a number; `nil` for any other kind.
    public var doubleValue: Double? {
        guard case .number(let number, _) = value else { return nil }
        return number
    }

    /// The literal as written (`"600"`, `"1.5e3"`) when this is a number, for quoting
    /// it back in messages; `nil` for any other kind.
    public var numberText: String? {
        guard case .number(_, let text) = value else { return nil }
        return text
    }

    /// The value when this is a number with no fractional part that fits in `Int`
    /// (`600`, `6e2`, `600.0`); `nil` for `1.5`, other kinds, and out-of-range numbers.
    public var intValue: Int? {
        guard case .number(let number, _) = value else { return nil }
        return Int(exactly: number)
    }

    /// Whether this is `null`, which specs use to mean "explicitly absent".
    public var isNull: Bool { value == .null }

    /// The member named `key` when this is an object; `nil` when there is no such
    /// member or this is not an object. Keys are unique, as the reader rejects duplicates.
    public subscript(key: String) -> JSONMember? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }
    }
}

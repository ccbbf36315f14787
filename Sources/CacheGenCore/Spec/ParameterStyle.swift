/// How a parameter's value is written, as OpenAPI's `style` and `explode` say.
public enum ParameterStyle: String, Sendable, Hashable {
    /// A query array as one item per value (`form`, exploded).
    case repeated
    /// A query array joined by spaces (`spaceDelimited`).
    case spaceDelimited
    /// A query array joined by `|` (`pipeDelimited`).
    case pipeDelimited
    /// A path value as `.value` (`label`).
    case label
    /// A path value as `;name=value` (`matrix`).
    case matrix
    /// A query object or dictionary as one item per property or entry,
    /// `name[property]=value` (`deepObject`).
    case deepObject
    /// A query object or dictionary as one item per property or entry, `property=value`
    /// (`form`, exploded: OpenAPI's default for objects).
    case formObject
}

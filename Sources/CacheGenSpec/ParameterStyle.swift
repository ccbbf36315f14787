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
    /// A path array as `.a.b` (`label`, exploded).
    case labelExploded
    /// A path array as `;name=a;name=b` (`matrix`, exploded).
    case matrixExploded
    /// A query object or dictionary as one item per property or entry,
    /// `name[property]=value` (`deepObject`).
    case deepObject
    /// A query object or dictionary as one item per property or entry, `property=value`
    /// (`form`, exploded: OpenAPI's default for objects).
    case formObject
    /// Any value as one item of JSON text, compact with sorted keys (`filters=[{"a":1}]`):
    /// an OpenAPI parameter serialized as `content: application/json`, a value no other
    /// style can write as text, and a spec parameter written `{ "type": …, "style": "json" }`.
    case json
    /// An object or any JSON value as one text, keys and values joined by commas,
    /// `key1,value1,key2,value2` (`form` in the query, `simple` in a header or path, not exploded).
    case objectJoined
    /// An object or any JSON value in a header or path as `key1=value1,key2=value2`
    /// (`simple`, exploded).
    case objectPairs
}

/// A model with an identity (the spec's `"identity": "id"`, OpenAPI's `x-cachegen-identity`):
/// when a mutation answers with one, the client replaces the value with the same identity in
/// every cached value of the signed-in user's partition that it holds, and in the entries it
/// reads later from the store that were stored before, so one entity edited is shown edited
/// everywhere (a list, its detail, another list that includes it).
///
/// Generated models conform when the spec names their identity; a model of yours conforms by
/// naming the JSON key of its identifying property. A value is found in cached JSON by that
/// key's value, and replaced only where the JSON object there decodes as the model.
public protocol CachedEntity: Codable, Sendable {
    /// The JSON name of the property that identifies a value (`"id"`); its value must be a
    /// string or a number, the same for every version of one entity.
    static var identityKey: String { get }
}

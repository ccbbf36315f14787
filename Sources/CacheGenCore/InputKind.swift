/// What kind of input a file is: a cachegen spec, an OpenAPI document or an overlay, told
/// apart by the keys at its root.
///
/// Stage 1 of `GeneratorPipeline` decides it, and this is the only place the rule is written:
/// the plugins, which cannot link the generator, compile this same file (linked from
/// `Plugins/PluginsShared/`) to pick a target's inputs as a run will read them. So it uses
/// nothing but the standard library.
enum InputKind: Equatable, Sendable {
    /// A cachegen spec (`"version": 1`).
    case spec
    /// An OpenAPI 3.x document, or a Swagger 2.0 one.
    case document
    /// A `*.cachegen.json` with `"openapi": "path/to/document.yaml"`.
    case overlay

    /// A document says `openapi: 3.x.y` (or `swagger: "2.0"`); an overlay names a file
    /// there; a spec has neither. Without a file name, a root with neither `paths` nor
    /// `info` whose `openapi` is no version number counts as an overlay, so its mistake is
    /// reported as an overlay's.
    ///
    /// - Parameters:
    ///   - openapi: `nil` when the root has no `openapi` key; else `.some` of its value when
    ///     that is a string, `.some(nil)` when it is anything else (a number, an object).
    ///   - hasSwagger: whether the root has a `swagger` key.
    ///   - hasPaths: whether the root has a `paths` key.
    ///   - hasInfo: whether the root has an `info` key.
    init(openapi: String??, hasSwagger: Bool, hasPaths: Bool, hasInfo: Bool) {
        guard let value = openapi else {
            self = hasSwagger ? .document : .spec
            return
        }
        let text = value?.lowercased()
        if let text, [".json", ".yaml", ".yml"].contains(where: text.hasSuffix) {
            self = .overlay
        } else if !hasPaths, !hasInfo, text?.first?.isNumber != true {
            self = .overlay
        } else {
            self = .document
        }
    }
}

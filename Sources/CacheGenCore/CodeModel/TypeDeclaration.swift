/// A struct, enum, protocol or extension.
struct TypeDeclaration: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable {
        case `struct`, `enum`, `protocol`, `extension`
    }

    var doc: DocComment = []
    var visibility: Visibility = .api
    var kind: Kind
    /// `indirect enum`: its payloads are stored out of line, so an enum may contain
    /// itself through them.
    var isIndirect = false
    var name: String
    /// Attributes written on lines of their own before the declaration (`@MainActor`).
    var attributes: [String] = []
    /// A compilation condition (`canImport(Observation)`) the declaration is wrapped in.
    var condition: String?
    var conformances: [String] = []
    var members: [Declaration] = []
}

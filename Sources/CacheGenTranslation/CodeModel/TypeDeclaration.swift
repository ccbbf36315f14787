/// A struct, enum, protocol or extension.
package struct TypeDeclaration: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case `struct`, `enum`, `protocol`, `extension`
    }

    package var doc: DocComment = []
    package var visibility: Visibility = .api
    package var kind: Kind
    /// `indirect enum`: its payloads are stored out of line, so an enum may contain
    /// itself through them.
    package var isIndirect = false
    package var name: String
    /// Attributes written on lines of their own before the declaration (`@MainActor`).
    package var attributes: [String] = []
    /// A compilation condition (`canImport(Observation)`) the declaration is wrapped in.
    package var condition: String?
    package var conformances: [String] = []
    package var members: [Declaration] = []
}

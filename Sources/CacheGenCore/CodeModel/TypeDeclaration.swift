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
    var conformances: [String] = []
    var members: [Declaration] = []
}

/// A struct, enum, protocol or extension.
struct TypeDeclaration: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable {
        case `struct`, `enum`, `protocol`, `extension`
    }

    var doc: DocComment = []
    var visibility: Visibility = .api
    var kind: Kind
    var name: String
    var conformances: [String] = []
    var members: [Declaration] = []
}

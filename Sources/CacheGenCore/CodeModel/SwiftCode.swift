/// A cut-down model of the Swift that cachegen writes: just enough structure that the
/// translator never formats text and the renderer alone decides layout.
struct SwiftFile: Sendable, Hashable {
    /// Comment lines at the top, without `//`.
    var header: [String]
    /// Imported modules, in order.
    var imports: [String]
    /// Top-level declarations, each preceded by an optional `// MARK: -` title.
    var sections: [Section]

    /// A group of declarations under a `// MARK: -` line.
    struct Section: Sendable, Hashable {
        var title: String
        var declarations: [Declaration]
    }
}

/// Doc comment lines, without `///`; empty lines become `///`.
typealias DocComment = [String]

/// Who may see a declaration; the renderer maps the user's choice onto it.
enum Visibility: Sendable, Hashable {
    /// `public` or nothing, per the generator's access option.
    case api
    /// `private`.
    case hidden
    /// No modifier: protocol requirements, enum cases, members of private types.
    case none
}

/// One declaration.
indirect enum Declaration: Sendable, Hashable {
    case type(TypeDeclaration)
    case property(PropertyDeclaration)
    case function(FunctionDeclaration)
    case enumCase(EnumCaseDeclaration)
}

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

/// A stored or static property.
struct PropertyDeclaration: Sendable, Hashable {
    var doc: DocComment = []
    var visibility: Visibility = .api
    var isStatic = false
    var isMutable = false
    var name: String
    var type: String?
    var value: Expression?
}

/// An expression the renderer may need to wrap: a call with labelled arguments, or text.
indirect enum Expression: Sendable, Hashable {
    /// Code written as is.
    case raw(String)
    /// `callee(label: value, …)`, wrapped one argument a line when too long.
    case call(String, [Argument])

    /// One labelled argument.
    struct Argument: Sendable, Hashable {
        var label: String?
        var value: Expression
    }
}

/// A function, initializer or protocol requirement.
struct FunctionDeclaration: Sendable, Hashable {
    /// One argument.
    struct Parameter: Sendable, Hashable {
        /// The argument label, when it differs from the name (`_` for none).
        var label: String?
        var name: String
        var type: String
        var defaultValue: String?
    }

    var doc: DocComment = []
    var visibility: Visibility = .api
    var isStatic = false
    /// `init` for initializers.
    var name: String
    var parameters: [Parameter] = []
    var isAsync = false
    var isThrowing = false
    var returnType: String?
    /// `nil` for a protocol requirement.
    var body: [Statement]?
}

/// A statement in a function body: a line, or a braced block.
indirect enum Statement: Sendable, Hashable {
    /// One line of code.
    case line(String)
    /// `prefix` followed by an expression the renderer may wrap.
    case expression(String, Expression)
    /// `header {`, the indented body, `}`.
    case block(String, [Statement])
}

/// An enum case, with an optional raw value.
struct EnumCaseDeclaration: Sendable, Hashable {
    var doc: DocComment = []
    var name: String
    var rawValue: String?
}

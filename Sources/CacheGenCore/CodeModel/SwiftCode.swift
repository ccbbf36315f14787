/// A cut-down model of the Swift that cachegen writes: just enough structure that the
/// translator never formats text and the renderer alone decides layout.
struct SwiftFile: Sendable, Hashable {
    /// Comment lines at the top, without `//`.
    var header: [String]
    /// Imported modules, in order.
    var imports: [Import]
    /// Top-level declarations, each preceded by an optional `// MARK: -` title.
    var sections: [Section]

    /// One imported module, optionally with an SPI group (`@_spi(Generated) import …`) for the
    /// runtime's declarations that only generated code uses.
    struct Import: Sendable, Hashable {
        var module: String
        var spi: String? = nil
    }

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
enum Declaration: Sendable, Hashable {
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
    /// Attributes such as `@Indirect`, written before the modifiers.
    var attributes: [String] = []
    var visibility: Visibility = .api
    var isStatic = false
    var isMutable = false
    var name: String
    var type: String?
    var value: Expression?
    /// The getter of a computed property; `nil` for a stored one.
    var getter: [Statement]?
}

/// An expression the renderer may need to wrap: a call with labelled arguments, or text.
enum Expression: Sendable, Hashable {
    /// Code written as is.
    case raw(String)
    /// `callee(label: value, …)`, wrapped one argument a line when too long.
    case call(String, [Argument])
    /// `[a, b]`, wrapped one element a line (with a trailing comma) when too long.
    case array([Expression])

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

        /// A parameter named after a Swift name, with label and inner name made safe
        /// by `SwiftNaming` (`in: Int`, `` `inout`: Int ``, `self self_: String`).
        init(swiftName: String, type: String, defaultValue: String? = nil) {
            let label = SwiftNaming.label(swiftName)
            let value = SwiftNaming.parameterValue(swiftName)
            let unescapedValue = SwiftNaming.unescaped(value)
            let sameName = value == label || (unescapedValue != value && unescapedValue == label)
            self.init(label: sameName ? nil : label, name: sameName ? label : value, type: type, defaultValue: defaultValue)
        }

        init(label: String? = nil, name: String, type: String, defaultValue: String? = nil) {
            self.label = label
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
        }

        /// How the body refers to the value.
        var value: String {
            label == nil ? SwiftNaming.parameterValue(SwiftNaming.unescaped(name)) : name
        }
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
enum Statement: Sendable, Hashable {
    /// One line of code.
    case line(String)
    /// `prefix` followed by an expression the renderer may wrap.
    case expression(String, Expression)
    /// `header {`, the indented body, `}`.
    case block(String, [Statement])
    /// `switch subject {`, each `case pattern:` level with it and its body indented, `}`.
    case switchOver(String, [(pattern: String, body: [Statement])])

    static func == (lhs: Statement, rhs: Statement) -> Bool { lhs.key == rhs.key }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// A structural description, for `Hashable`; tuples cannot conform themselves.
    private var key: String {
        switch self {
        case .line(let text): "l:\(text)"
        case .expression(let prefix, let expression): "e:\(prefix)\(expression)"
        case .block(let header, let body): "b:\(header){\(body.map(\.key))}"
        case .switchOver(let subject, let cases): "s:\(subject){\(cases.map { "\($0.pattern):\($0.body.map(\.key))" })}"
        }
    }
}

/// An enum case, with an optional raw value.
struct EnumCaseDeclaration: Sendable, Hashable {
    var doc: DocComment = []
    var name: String
    var rawValue: String?
}

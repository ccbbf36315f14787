/// A function, initializer or protocol requirement.
struct FunctionDeclaration: Sendable, Hashable {
    /// One argument.
    struct Parameter: Sendable, Hashable {
        /// The argument label, when it differs from the name (`_` for none).
        var label: String?
        var name: String
        var type: SwiftType
        var defaultValue: Expression?

        /// A parameter named after a Swift name, with label and inner name made safe
        /// by `SwiftNaming` (`in: Int`, `` `inout`: Int ``, `self self_: String`).
        init(swiftName: String, type: SwiftType, defaultValue: Expression? = nil) {
            let label = SwiftNaming.label(swiftName)
            let value = SwiftNaming.parameterValue(swiftName)
            let unescapedValue = SwiftNaming.unescaped(value)
            let sameName = value == label || (unescapedValue != value && unescapedValue == label)
            self.init(label: sameName ? nil : label, name: sameName ? label : value, type: type, defaultValue: defaultValue)
        }

        init(label: String? = nil, name: String, type: SwiftType, defaultValue: Expression? = nil) {
            self.label = label
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
        }

        /// How the body refers to the value.
        var value: Expression {
            .identifier(label == nil ? SwiftNaming.parameterValue(SwiftNaming.unescaped(name)) : name)
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
    var returnType: SwiftType?
    /// `nil` for a protocol requirement.
    var body: [Statement]?
}

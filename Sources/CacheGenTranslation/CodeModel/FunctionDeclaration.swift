import CacheGenSpec

/// A function, initializer or protocol requirement.
package struct FunctionDeclaration: Sendable, Hashable {
    /// One argument.
    package struct Parameter: Sendable, Hashable {
        /// The argument label, when it differs from the name (`_` for none).
        package var label: String?
        package var name: String
        package var type: SwiftType
        package var defaultValue: Expression?

        /// A parameter named after a Swift name, with label and inner name made safe
        /// by `SwiftNaming` (`in: Int`, `` `inout`: Int ``, `self self_: String`).
        package init(swiftName: String, type: SwiftType, defaultValue: Expression? = nil) {
            let label = SwiftNaming.label(swiftName)
            let value = SwiftNaming.parameterValue(swiftName)
            let unescapedValue = SwiftNaming.unescaped(value)
            let sameName = value == label || (unescapedValue != value && unescapedValue == label)
            self.init(label: sameName ? nil : label, name: sameName ? label : value, type: type, defaultValue: defaultValue)
        }

        package init(label: String? = nil, name: String, type: SwiftType, defaultValue: Expression? = nil) {
            self.label = label
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
        }

        /// How the body refers to the value.
        package var value: Expression {
            .identifier(label == nil ? SwiftNaming.parameterValue(SwiftNaming.unescaped(name)) : name)
        }
    }

    package var doc: DocComment = []
    /// Attributes written on lines of their own before the signature (`@MainActor`).
    package var attributes: [String] = []
    package var visibility: Visibility = .api
    package var isStatic = false
    /// `init` for initializers.
    package var name: String
    /// The generic parameters written after the name, without the angle brackets
    /// (`Value: Codable & Sendable`); `nil` for none.
    package var genericParameters: String? = nil
    package var parameters: [Parameter] = []
    package var isAsync = false
    package var isThrowing = false
    package var returnType: SwiftType?
    /// `nil` for a protocol requirement.
    package var body: [Statement]?
}

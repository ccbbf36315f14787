/// An enum case, with an optional raw value or associated value.
struct EnumCaseDeclaration: Sendable, Hashable {
    var doc: DocComment = []
    var name: String
    /// The raw value, as the string it stands for (the renderer writes the literal).
    var rawValue: String?
    /// The type of the one unlabelled associated value: `case unknown(String)`.
    var associatedType: SwiftType?
}

/// An enum case, with an optional raw value or associated value.
package struct EnumCaseDeclaration: Sendable, Hashable {
    package var doc: DocComment = []
    package var name: String
    /// The raw value, as the string it stands for (the renderer writes the literal).
    package var rawValue: String?
    /// The type of the one unlabelled associated value: `case unknown(String)`.
    package var associatedType: SwiftType?
}

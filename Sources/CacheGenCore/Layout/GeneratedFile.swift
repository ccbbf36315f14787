/// One Swift file the generator wrote for a spec: its name, unique among all specs of a
/// target, and its text.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name, without folders (`Accounts+Models3.cachegen.swift`).
    public var name: String
    /// The file's text.
    public var contents: String

    /// Creates a file.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

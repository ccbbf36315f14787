import CacheGenReading
import CacheGenSpec

/// The models' names and the queue of schemas still to build. A model schema is named once,
/// when it is first reached (inline, by pointers, from several operations: one schema is one
/// model), with a Swift type name no other model and no reserved name has; it is built
/// later, in the order it was named, so models keep the document's order and a recursive
/// schema is a recursive model.
package struct OpenAPIModelRegistry {
    /// Models in the order they were named; `nil` until built.
    private var slots: [Model?] = []
    /// Model schemas named but not built yet.
    private var pending: [(slot: Int, node: JSONNode, file: String)] = []
    /// The first of `pending` not handed out to be built yet.
    private var nextPending = 0
    /// The model each schema node became, by where the node is (with the node, to tell apart
    /// nodes made in memory at the same place): one schema is one model, however it is reached
    /// (inline, by pointers, from several operations).
    private var placed: [SourceLocation: (node: JSONNode, name: String)] = [:]
    /// Swift type names already taken, by models and by names reserved up front.
    private var taken: Set<String> = []
    /// Put before every model name.
    private let prefix: String

    /// - Parameter prefix: put before every model name.
    init(prefix: String) {
        self.prefix = prefix
        taken = SpecValidator.reservedTypeNames
    }

    /// The model `node` already became, when it did.
    func model(of node: JSONNode) -> String? {
        guard let known = placed[node.location], known.node == node else { return nil }
        return known.name
    }

    /// Claims a unique Swift type name for a model schema and queues the schema to be built.
    mutating func register(_ hint: String, at location: SourceLocation, node: JSONNode, file: String) -> String {
        var base = hint
        if SwiftNaming.isNameless(base) { base = "Schema" }
        // A schema named `file` or `json` is the model `File` or `Json`: the spec's type words
        // are the built-in types.
        if TypeRef.Scalar(rawValue: base) != nil { base = SwiftNaming.typeName(base) }
        if SpecValidator.reservedTypeNames.contains(SwiftNaming.typeName(base)) { base = "Api" + SwiftNaming.typeName(base) }
        // Names made from a model's name (`StorePetOwner`) carry the prefix already.
        let carriesPrefix = base.hasPrefix(prefix) && base.dropFirst(prefix.count).first?.isUppercase == true
        if !prefix.isEmpty, !carriesPrefix { base = prefix + SwiftNaming.typeName(base) }
        base = Self.shortened(base)
        var name = base
        var swiftName = SwiftNaming.typeName(name)
        var number = 2
        while taken.contains(swiftName) {
            name = base + String(number)
            swiftName = SwiftNaming.typeName(name)
            number += 1
        }
        taken.insert(swiftName)
        if placed[node.location] == nil { placed[node.location] = (node, name) }
        slots.append(Model(name: Named(name: name, location: location), description: nil, kind: .object([])))
        pending.append((slots.count - 1, node, file))
        return name
    }

    /// The next schema to build, first in first out, with its model's slot and name (the
    /// queue grows while models are built); `nil`, the queue emptied, when none is left.
    mutating func next() -> (slot: Int, name: Named?, node: JSONNode, file: String)? {
        guard nextPending < pending.count else {
            pending.removeAll()
            nextPending = 0
            return nil
        }
        let next = pending[nextPending]
        nextPending += 1
        return (next.slot, slots[next.slot]?.name, next.node, next.file)
    }

    /// Keeps the model built for a slot `next` handed out.
    mutating func store(_ model: Model, at slot: Int) {
        slots[slot] = model
    }

    /// Every model named so far, in the order it was named.
    var models: [Model] { slots.compactMap { $0 } }

    /// The longest model or case name made from a document's names.
    package static let maximumNameLength = 60

    /// `name` if it is short enough, else its start and a hash of the whole, so two long
    /// names that share a start stay apart and the same name always shortens the same way.
    package static func shortened(_ name: String) -> String {
        // No more bytes than the limit means no more characters either.
        guard name.utf8.count > maximumNameLength, name.count > maximumNameLength else { return name }
        var hash: UInt32 = 0x811c_9dc5
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16, uppercase: true)
        return String(name.prefix(maximumNameLength - 9)) + String(repeating: "0", count: 8 - hex.count) + hex
    }
}

import CacheGenSpec

/// A short hash of a response type's shape, computed at generation time.
///
/// It covers the response type and every model reachable from it: each property's JSON
/// name and type, each enum's values, and the date format. A change to any of them
/// changes the fingerprint, so entries stored by an older model are simply not found.
/// Each model is described once, by name, the first time a fingerprint reaches it, so shared
/// and recursive models cost linear time however many response types reach them, and
/// models no cached response reaches (most of a large document's) are never described.
package struct ShapeFingerprint {
    /// The models by name; the first of a name counts.
    private let models: [String: Model]
    /// Each model's description, and the models its properties name, once described.
    private var described: [String: (description: String, references: [String])] = [:]
    private let dates: DateFormat

    package init(spec: Spec) {
        models = Dictionary(spec.models.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
        dates = spec.defaults.dates
    }

    /// The description of the model named `name` and the models it names, made on first use.
    private mutating func shape(of name: String) -> (description: String, references: [String])? {
        if let known = described[name] { return known }
        guard let model = models[name] else { return nil }
        var references: [String] = []
        switch model.kind {
        case .object(let properties):
            for property in properties { references += Self.modelNames(in: property.type) }
            if let extra = model.additionalProperties { references += Self.modelNames(in: extra.type) }
        case .taggedUnion(let union):
            references = union.cases.map(\.model)
        case .untaggedUnion(let cases):
            for choice in cases { references += Self.modelNames(in: choice.type) }
        case .enumeration:
            break
        }
        let shape = (Self.describe(model), references)
        described[name] = shape
        return shape
    }

    /// 16 hex digits of FNV-1a 64 over the canonical shape text.
    package mutating func of(_ type: TypeRef) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text(of: type).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `dates=…;<type>;<model>{…};…` with the reachable models sorted by name.
    package mutating func text(of type: TypeRef) -> String {
        var reachable: Set<String> = []
        var pending = Self.modelNames(in: type)
        while let name = pending.popLast() {
            guard reachable.insert(name).inserted, let shape = shape(of: name) else { continue }
            pending += shape.references
        }
        let descriptions = reachable.sorted().compactMap { name in described[name]?.description }
        return (["dates=\(dates.rawValue)", type.description] + descriptions).joined(separator: ";")
    }

    private static func describe(_ model: Model) -> String {
        switch model.kind {
        case .enumeration(let values):
            return model.name.name + "(" + values.map(\.value).joined(separator: "|") + ")"
        case .object(let properties):
            // Other keys are `*`; without them the text is what it was before they were kept.
            let extra = model.additionalProperties.map { [",*:\($0.type)"] } ?? []
            return model.name.name + "{" + properties.map { "\($0.wireName):\($0.type)" + ($0.partHeaders.isEmpty ? "" : "+headers") }.joined(separator: ",") + extra.joined() + "}"
        case .taggedUnion(let union):
            return model.name.name + "<" + union.propertyName + ":"
                + union.cases.map { "\($0.value)=\($0.model)" }.joined(separator: "|")
                // Without a fallback the text is what it was before there were fallbacks.
                + (union.fallback.map { "|*=\($0)" } ?? "") + ">"
        case .untaggedUnion(let cases):
            return model.name.name + "<" + cases.map { "\($0.name)=\($0.type)" }.joined(separator: "|") + ">"
        }
    }

    private static func modelNames(in type: TypeRef) -> [String] {
        switch type {
        case .scalar: []
        case .model(let name): [name]
        case .array(let inner), .dictionary(let inner), .optional(let inner): modelNames(in: inner)
        }
    }
}

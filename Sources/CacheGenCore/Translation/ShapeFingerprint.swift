/// A short hash of a response type's shape, computed at generation time.
///
/// It covers every property's Swift type, JSON name and optionality, enum values, and
/// the date format, recursively through models; a change to any of them changes the
/// fingerprint, so entries stored by an older model are simply not found.
enum ShapeFingerprint {
    /// 16 hex digits of FNV-1a 64 over the canonical shape text.
    static func of(_ type: TypeRef, in spec: Spec) -> String {
        var visited: Set<String> = []
        let text = "dates=\(spec.defaults.dates.rawValue);" + describe(type, spec: spec, visited: &visited)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The canonical shape text; models already being described are referred to by name.
    static func describe(_ type: TypeRef, spec: Spec, visited: inout Set<String>) -> String {
        switch type {
        case .scalar(let scalar): return scalar.rawValue
        case .array(let element): return "[" + describe(element, spec: spec, visited: &visited) + "]"
        case .dictionary(let value): return "[string:" + describe(value, spec: spec, visited: &visited) + "]"
        case .optional(let wrapped): return describe(wrapped, spec: spec, visited: &visited) + "?"
        case .model(let name):
            guard let model = spec.models.first(where: { $0.name.name == name }), visited.insert(name).inserted else {
                return name
            }
            defer { visited.remove(name) }
            switch model.kind {
            case .enumeration(let values):
                return name + "(" + values.map(\.value).joined(separator: "|") + ")"
            case .object(let properties):
                let fields = properties.map { property in
                    property.wireName + ":" + describe(property.type, spec: spec, visited: &visited)
                }
                return name + "{" + fields.joined(separator: ",") + "}"
            }
        }
    }
}

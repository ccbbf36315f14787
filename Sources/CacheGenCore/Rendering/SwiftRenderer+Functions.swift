/// Functions and initializers: the signature on one line when it fits, else one
/// parameter a line; then the body.
extension SwiftRenderer {
    func render(_ function: FunctionDeclaration, into writer: inout LineWriter) {
        doc(function.doc, into: &writer)
        let modifiers = modifiers(function.visibility, isStatic: function.isStatic)
        let keyword = function.name == "init" ? "init" : "func "
        let name = function.name == "init" ? "" : function.name
        let effects = function.isAsync ? (function.isThrowing ? " async throws" : " async") : (function.isThrowing ? " throws" : "")
        let arrow = function.returnType == nil ? "" : " -> "
        let result = function.returnType ?? ""
        let opening = function.body == nil ? "" : " {"
        let separators = max(function.parameters.count - 1, 0) * 2
        let fixed = [modifiers, keyword, name, effects, arrow, result, opening]
        let fits = writer.fits(
            bytes: fixed.reduce(2 + separators) { $0 + $1.utf8.count } + Self.measure(function.parameters, ByteCount()),
            characters: fixed.reduce(2 + separators) { $0 + $1.characterCount }
                + Self.measure(function.parameters, CharacterCount()))
        writer.startLine()
        writer.append(modifiers)
        writer.append(keyword)
        writer.append(name)
        writer.append("(")
        if fits {
            for (index, parameter) in function.parameters.enumerated() {
                if index > 0 { writer.append(", ") }
                Self.write(parameter, into: &writer)
            }
        } else {
            writer.endLine()
            writer.indented { inner in
                for (index, parameter) in function.parameters.enumerated() {
                    inner.startLine()
                    Self.write(parameter, into: &inner)
                    if index < function.parameters.count - 1 { inner.append(",") }
                    inner.endLine()
                }
            }
            writer.startLine()
        }
        writer.append(")")
        writer.append(effects)
        writer.append(arrow)
        writer.append(result)
        writer.append(opening)
        writer.endLine()
        guard let body = function.body else { return }
        writer.indented { inner in body.forEach { render($0, into: &inner) } }
        writer.write("}")
    }

    /// The parameters' own text, without separators.
    private static func measure<Count: TextCount>(_ parameters: [FunctionDeclaration.Parameter], _ count: Count) -> Int {
        var count = count
        for parameter in parameters { write(parameter, into: &count) }
        return count.total
    }

    /// `label name: Type = value`.
    private static func write<Sink: TextSink>(_ parameter: FunctionDeclaration.Parameter, into sink: inout Sink) {
        if let label = parameter.label {
            sink.append(label)
            sink.append(" ")
        }
        sink.append(parameter.name)
        sink.append(": ")
        sink.append(parameter.type)
        if let value = parameter.defaultValue {
            sink.append(" = ")
            OneLine.write(value, into: &sink)
        }
    }
}

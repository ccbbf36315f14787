import CacheGenSpec

/// Functions and initializers: the signature on one line when it fits, else one
/// parameter a line; then the body.
extension SwiftRenderer {
    package func render(_ function: FunctionDeclaration, into writer: inout LineWriter) {
        doc(function.doc, into: &writer)
        for attribute in function.attributes { writer.write(attribute) }
        let modifiers = modifiers(function.visibility, isStatic: function.isStatic)
        let fits = writer.fits(
            bytes: Self.measure(function, modifiers: modifiers, LineLength(.bytes, limit: writer.room)),
            characters: Self.measure(function, modifiers: modifiers, LineLength(.characters, limit: writer.room)))
        if fits {
            writer.startLine()
            Self.writeSignature(function, modifiers: modifiers, into: &writer)
            writer.endLine()
        } else {
            writer.startLine()
            Self.writeOpening(function, modifiers: modifiers, into: &writer)
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
            Self.writeClosing(function, into: &writer)
            writer.endLine()
        }
        guard let body = function.body else { return }
        writer.indented { inner in body.forEach { render($0, into: &inner) } }
        writer.write("}")
    }

    /// The signature's length on one line, in what `count` counts.
    private static func measure(_ function: FunctionDeclaration, modifiers: String, _ length: LineLength) -> Int {
        var count = length
        writeSignature(function, modifiers: modifiers, into: &count)
        return count.total
    }

    /// `modifiers func name(parameters) async throws -> Result {` on one line.
    private static func writeSignature<Sink: TextSink>(_ function: FunctionDeclaration, modifiers: String, into sink: inout Sink) {
        writeOpening(function, modifiers: modifiers, into: &sink)
        for (index, parameter) in function.parameters.enumerated() {
            if index > 0 { sink.append(syntax: ", ") }
            write(parameter, into: &sink)
        }
        writeClosing(function, into: &sink)
    }

    /// `modifiers func name(`.
    private static func writeOpening<Sink: TextSink>(_ function: FunctionDeclaration, modifiers: String, into sink: inout Sink) {
        sink.append(modifiers)
        if function.name == "init" {
            sink.append(syntax: "init")
        } else {
            sink.append(syntax: "func ")
            sink.append(function.name)
        }
        if let generics = function.genericParameters {
            sink.append(syntax: "<")
            sink.append(generics)
            sink.append(syntax: ">")
        }
        sink.append(syntax: "(")
    }

    /// `) async throws -> Result {`, the brace only when there is a body.
    private static func writeClosing<Sink: TextSink>(_ function: FunctionDeclaration, into sink: inout Sink) {
        sink.append(syntax: ")")
        if function.isAsync { sink.append(syntax: " async") }
        if function.isThrowing { sink.append(syntax: " throws") }
        if let result = function.returnType {
            sink.append(syntax: " -> ")
            OneLine.write(result, into: &sink)
        }
        if function.body != nil { sink.append(syntax: " {") }
    }

    /// `label name: Type = value`.
    private static func write<Sink: TextSink>(_ parameter: FunctionDeclaration.Parameter, into sink: inout Sink) {
        if let label = parameter.label {
            sink.append(label)
            sink.append(syntax: " ")
        }
        sink.append(parameter.name)
        sink.append(syntax: ": ")
        OneLine.write(parameter.type, into: &sink)
        if let value = parameter.defaultValue {
            sink.append(syntax: " = ")
            OneLine.write(value, into: &sink)
        }
    }
}

/// Types, expressions and statements written on one line, into any `TextSink`: the file, or a
/// counter that measures the line first. Closures always take this form.
package enum OneLine {
    /// `expression` as a `String`.
    package static func text(_ expression: Expression) -> String {
        var buffer = TextBuffer()
        write(expression, into: &buffer)
        return buffer.text
    }

    /// `type` as a `String`.
    package static func text(_ type: SwiftType) -> String {
        var buffer = TextBuffer()
        write(type, into: &buffer)
        return buffer.text
    }

    package static func write<Sink: TextSink>(_ expression: Expression, into sink: inout Sink) {
        switch expression {
        case .identifier(let name):
            sink.append(name)
        case .literal(let literal):
            switch literal {
            case .string(let text) where SwiftLiteral.needsNoEscaping(text):
                sink.append(syntax: "\"")
                sink.append(text)
                sink.append(syntax: "\"")
            case .string(let text): sink.append(SwiftLiteral.string(text))
            case .integer(let value): sink.append(String(value))
            case .boolean(let value): sink.append(value ? "true" : "false")
            case .nil: sink.append(syntax: "nil")
            }
        case .member(let base, let name):
            write(base, into: &sink)
            sink.append(syntax: ".")
            sink.append(name)
        case .implicitMember(let name):
            sink.append(syntax: ".")
            sink.append(name)
        case .keyPath(let name):
            sink.append(syntax: "\\.")
            sink.append(name)
        case .optionalChaining(let base):
            write(base, into: &sink)
            sink.append(syntax: "?")
        case .call(let callee, let arguments, let trailingClosure, _):
            write(callee, into: &sink)
            if !arguments.isEmpty || trailingClosure == nil {
                writeList(arguments, "(", ")", into: &sink) { argument, sink in
                    if let label = argument.label {
                        sink.append(label)
                        sink.append(syntax: ": ")
                    }
                    write(argument.value, into: &sink)
                }
            }
            if let trailingClosure {
                sink.append(syntax: " ")
                write(trailingClosure, into: &sink)
            }
        case .closure(let closure):
            write(closure, into: &sink)
        case .array(let elements, _):
            writeList(elements, "[", "]", into: &sink) { element, sink in write(element, into: &sink) }
        case .try(let operand):
            write(operand, after: "try ", into: &sink)
        case .await(let operand):
            write(operand, after: "await ", into: &sink)
        case .infix(let left, let operator_, let right):
            write(left, into: &sink)
            sink.append(syntax: " ")
            sink.append(operator_)
            sink.append(syntax: " ")
            write(right, into: &sink)
        }
    }

    package static func write<Sink: TextSink>(_ type: SwiftType, into sink: inout Sink) {
        switch type {
        case .named(let name):
            sink.append(name)
        case .generic(let name, let arguments):
            sink.append(name)
            writeList(arguments, "<", ">", into: &sink) { argument, sink in write(argument, into: &sink) }
        case .existential(let name):
            sink.append(syntax: "any ")
            sink.append(name)
        case .array(let element):
            sink.append(syntax: "[")
            write(element, into: &sink)
            sink.append(syntax: "]")
        case .dictionary(let key, let value):
            sink.append(syntax: "[")
            write(key, into: &sink)
            sink.append(syntax: ": ")
            write(value, into: &sink)
            sink.append(syntax: "]")
        case .optional(let wrapped):
            write(wrapped, into: &sink)
            sink.append(syntax: "?")
        case .function(let function):
            if function.isSendable { sink.append(syntax: "@Sendable ") }
            writeList(function.parameters, "(", ")", into: &sink) { parameter, sink in
                sink.append(syntax: "_ ")
                sink.append(parameter.name)
                sink.append(syntax: ": ")
                write(parameter.type, into: &sink)
            }
            if function.isAsync { sink.append(syntax: " async") }
            if function.isThrowing { sink.append(syntax: " throws") }
            sink.append(syntax: " -> ")
            write(function.result, into: &sink)
        case .escaping(let closure):
            sink.append(syntax: "@escaping ")
            write(closure, into: &sink)
        }
    }

    /// `open` items separated by `, ` `close`.
    private static func writeList<Sink: TextSink, Item>(
        _ items: [Item], _ open: StaticString, _ close: StaticString, into sink: inout Sink,
        _ writeItem: (Item, inout Sink) -> Void
    ) {
        sink.append(syntax: open)
        for (index, item) in items.enumerated() {
            if index > 0 { sink.append(syntax: ", ") }
            writeItem(item, &sink)
        }
        sink.append(syntax: close)
    }

    /// `keyword expression`: `try`, `await`, `return`, `throw`.
    private static func write<Sink: TextSink>(_ expression: Expression, after keyword: String, into sink: inout Sink) {
        sink.append(keyword)
        write(expression, into: &sink)
    }

    /// `{ a, b in first; second }`.
    package static func write<Sink: TextSink>(_ closure: Expression.Closure, into sink: inout Sink) {
        sink.append(syntax: "{ ")
        if !closure.parameters.isEmpty {
            sink.append(closure.parameters.joined(separator: ", "))
            sink.append(syntax: " in ")
        }
        for (index, statement) in closure.body.enumerated() {
            if index > 0 { sink.append(syntax: "; ") }
            write(statement, into: &sink)
        }
        sink.append(syntax: " }")
    }

    package static func write<Sink: TextSink>(_ statement: Statement, into sink: inout Sink) {
        switch statement {
        case .expression(let expression):
            write(expression, into: &sink)
        case .variable(let isMutable, let name, let value):
            sink.append(isMutable ? "var " : "let ")
            sink.append(name)
            sink.append(syntax: " = ")
            write(value, into: &sink)
        case .assignment(let target, let value):
            write(target, into: &sink)
            sink.append(syntax: " = ")
            write(value, into: &sink)
        case .return(let value):
            write(value, after: "return ", into: &sink)
        case .throw(let error):
            write(error, after: "throw ", into: &sink)
        case .returnVoid:
            sink.append(syntax: "return")
        case .ifLetTry(let name, let value, let condition, let body):
            sink.append(syntax: "if let ")
            sink.append(name)
            sink.append(syntax: " = try? ")
            write(value, into: &sink)
            if let condition {
                sink.append(syntax: ", ")
                write(condition, into: &sink)
            }
            sink.append(syntax: " {")
            for statement in body {
                sink.append(syntax: " ")
                write(statement, into: &sink)
            }
            sink.append(syntax: " }")
        case .switchOver(let subject, let cases):
            sink.append(syntax: "switch ")
            write(subject, into: &sink)
            sink.append(syntax: " {")
            for switchCase in cases {
                sink.append(syntax: " ")
                write(switchCase.pattern, into: &sink)
                for statement in switchCase.body {
                    sink.append(syntax: " ")
                    write(statement, into: &sink)
                }
            }
            sink.append(syntax: " }")
        }
    }

    /// `case pattern:`, or `default:` for none.
    package static func write<Sink: TextSink>(_ pattern: Statement.Pattern?, into sink: inout Sink) {
        switch pattern {
        case nil:
            sink.append(syntax: "default:")
        case .value(let value)?:
            sink.append(syntax: "case ")
            write(value, into: &sink)
            sink.append(syntax: ":")
        case .binding(let caseName, let variable)?:
            sink.append(syntax: "case .")
            sink.append(caseName)
            sink.append(syntax: "(let ")
            sink.append(variable)
            sink.append(syntax: "):")
        }
    }
}

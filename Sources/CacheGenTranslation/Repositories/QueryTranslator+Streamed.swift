import CacheGenSpec

/// Live query factories over streams: for each streamed endpoint one short generic method in
/// the repository protocol's query extension that wraps the protocol's own stream method in a
/// `StreamedQuery`, which reduces its events into a value of the caller's choosing and keeps
/// the finished one for offline (the runtime does the rest).
extension QueryTranslator {
    /// The names a streamed query factory adds to the method's parameters.
    static let streamedQueryParameterNames: Set<String> = ["initial", "reduce"]

    /// `…Query(…, initial:reduce:)` for a streamed endpoint; `nil` for any other, and for one
    /// with a parameter named like the factory's own (its plain method serves it).
    package func streamedQueryFactory(_ method: RepositoryMethod) -> FunctionDeclaration? {
        guard method.isEventStream,
            !method.arguments.contains(where: { Self.streamedQueryParameterNames.contains($0.name) })
        else {
            return nil
        }
        let event = method.responseType ?? .named("String")
        let reduce = SwiftType.escaping(
            .function(
                .init(
                    parameters: [.init(name: "value", type: .named("inout Value")), .init(name: "event", type: event)],
                    isSendable: true, isAsync: false, isThrowing: false, result: .void)))
        let stream = Expression.call(Expression.selfValue.dot(method.name), method.forwardedArguments)
        let query = Expression.call(
            .identifier("StreamedQuery"),
            [.init(label: "initial", value: .identifier("initial")), .init(label: "reduce", value: .identifier("reduce"))],
            trailingClosure: .init(body: [.expression(stream)]))
        return FunctionDeclaration(
            doc: [
                "`\(method.baseName)` as a live query for a screen: its events reduced into `initial` as they",
                "arrive, the finished value kept for offline. See `StreamedQuery`.",
            ],
            name: SwiftNaming.escaped(method.baseName + "Query"),
            genericParameters: "Value: Codable & Sendable",
            parameters: method.parameters(policy: .none, optionalDefaults: true) + [
                .init(name: "initial", type: .named("Value")), .init(name: "reduce", type: reduce),
            ],
            returnType: .generic("StreamedQuery", [event, .named("Value")]),
            body: [.expression(query)])
    }
}

import CacheGenSpec

/// What the repository constructs need to know of one endpoint, named once: its Swift
/// method's name, arguments and return type, and how it is cached, queued or streamed.
/// Made once per endpoint (`init(_:in:context:)`) and read by every repository translator.
package struct RepositoryMethod {
    /// The endpoint as the spec declares it.
    package let endpoint: EndpointSpec
    /// The repository's name in the spec.
    package let repository: String
    /// The Swift method name before escaping; doc comments and derived names use it.
    package let baseName: String
    /// The method's arguments, in order: the parameters, then the body and its media type.
    package let arguments: [Argument]
    /// The decoded response's Swift type; `nil` when the endpoint answers with nothing.
    package let responseType: SwiftType?
    /// Whether the endpoint's answers are cached (its `cache` rule is on).
    package let isCached: Bool
    /// The `CachePolicy` case the method defaults to, without its dot.
    package let defaultPolicy: String
    /// Whether the method has a `…Stream` twin: a cached one, unless the spec turns streams off.
    package let hasStream: Bool
    /// Whether the call may wait in the client's outbox (`"offline": "queue"`) and so
    /// returns a `MutationResult`.
    package let isQueued: Bool

    /// A method from parts already worked out; the return and stream types follow from them.
    package init(
        endpoint: EndpointSpec, repository: String, arguments: [Argument], responseType: SwiftType?, isCached: Bool,
        defaultPolicy: String, hasStream: Bool
    ) {
        self.hasStream = hasStream
        self.endpoint = endpoint
        self.repository = repository
        baseName = endpoint.swiftName ?? SwiftNaming.memberName(endpoint.name.name)
        self.arguments = arguments
        self.responseType = responseType
        self.isCached = isCached
        self.defaultPolicy = defaultPolicy
        isQueued = endpoint.offline != nil && !isCached && !endpoint.responseFormat.isStream
        let cachedValue = SwiftType.generic("CachedValue", [responseType ?? .void])
        if endpoint.responseFormat.isStream {
            returnType = .generic("EventStream", [responseType ?? .named("String")])
        } else if isQueued {
            returnType = .generic("MutationResult", [responseType ?? .void])
        } else {
            returnType = responseType == nil ? nil : isCached ? cachedValue : responseType
        }
        streamType = .generic("AsyncThrowingStream", [cachedValue, .existential("Error")])
    }

    /// One argument of the method: a parameter, the body or the body's media type.
    package struct Argument {
        /// The Swift name, unescaped.
        package let name: String
        /// Its Swift type, optional already when `isOptional`.
        package let type: SwiftType
        /// Whether a caller may leave it out.
        package let isOptional: Bool
        /// The spec's parameter it carries; `nil` for the body and its media type.
        package let parameter: Parameter?
        /// Whether this is the media type of a body the caller names (`contentType`),
        /// not the body itself, when `parameter` is `nil`.
        package let isContentType: Bool
        /// The declared parameter, without a default value.
        package let declaration: FunctionDeclaration.Parameter

        /// An argument and its declaration.
        package init(name: String, type: SwiftType, isOptional: Bool, parameter: Parameter?, isContentType: Bool = false) {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.parameter = parameter
            self.isContentType = isContentType
            declaration = FunctionDeclaration.Parameter(swiftName: name, type: type)
        }

        /// How a body refers to the argument.
        package var value: Expression { .identifier(SwiftNaming.parameterValue(name)) }
    }

    /// Whether the method returns the response's events as an `EventStream`, at once and
    /// without throwing: the request is sent when the sequence is iterated.
    package var isEventStream: Bool { endpoint.responseFormat.isStream }

    /// Whether the method's stream is a long-lived channel (`"channel": true`), connected
    /// again when the server ends its response.
    package var isChannel: Bool { isEventStream && endpoint.channel != nil }

    /// The relation of the next page's link, for an endpoint with link paging.
    package var linkRelation: String? {
        if case .link(let relation)? = endpoint.paging?.kind { relation } else { nil }
    }
    /// The method name, escaped where it is a keyword.
    package var name: String { SwiftNaming.escaped(baseName) }
    /// The `…Stream` twin's name, escaped where it is a keyword.
    package var streamName: String { SwiftNaming.escaped(baseName + "Stream") }
    /// The static property of `Live…` holding the response's shape fingerprint.
    package var shapeName: String { SwiftNaming.escaped(baseName + "Shape") }
    /// What the stream method returns.
    package let streamType: SwiftType
    /// The `Endpoint` constant's and the request builder's name in the live repository.
    package var endpointConstant: Expression { Expression.identifier("Endpoints").dot(name) }

    /// What the method returns: the response, in a `CachedValue` when cached.
    package let returnType: SwiftType?

    /// The declared parameters, with the `policy` parameter as asked and, when
    /// `optionalDefaults`, `= nil` for optional ones.
    package func parameters(policy: PolicyArgument, optionalDefaults: Bool) -> [FunctionDeclaration.Parameter] {
        var list = arguments.map { argument in
            var declaration = argument.declaration
            if optionalDefaults && argument.isOptional { declaration.defaultValue = .literal(.nil) }
            return declaration
        }
        switch policy {
        case .none: break
        case .optional: list.append(.init(name: "policy", type: .optional(.named("CachePolicy"))))
        case .defaulted: list.append(.init(name: "policy", type: .named("CachePolicy"), defaultValue: .implicitMember(defaultPolicy)))
        }
        return list
    }

    /// `name: name` arguments forwarding every parameter, with `nil` for left-out optionals.
    package func forwarding(omittingOptionals: Bool) -> [Expression.Argument] {
        arguments.map { argument in
            Expression.Argument(
                label: SwiftNaming.callLabel(argument.name),
                value: omittingOptionals && argument.isOptional ? .literal(.nil) : argument.value)
        }
    }

    /// Every parameter passed on under its own name.
    package var forwardedArguments: [Expression.Argument] { forwarding(omittingOptionals: false) }

    /// Whether a method's declaration takes a `policy` parameter: none, optional or with the
    /// endpoint's default.
    package enum PolicyArgument {
        case none, optional, defaulted
    }
}

extension RepositoryMethod {
    /// The method for `endpoint` of `repository`: its arguments (the parameters, then the
    /// body and the body's media type when the caller names it), its response type and how
    /// it is cached.
    package init(_ endpoint: EndpointSpec, in repository: Repository, context: TranslationContext) {
        var arguments = endpoint.parameters.map { parameter in
            Argument(
                name: parameter.swiftName ?? SwiftNaming.argumentName(parameter.name.name), type: context.swiftType(parameter.type),
                isOptional: parameter.type.isOptional, parameter: parameter)
        }
        if let body = endpoint.body {
            arguments.append(Argument(name: "body", type: context.swiftType(body), isOptional: false, parameter: nil))
            if endpoint.bodyEncoding.callerContentType {
                let taken = Set(arguments.map(\.name))
                let name = SwiftNaming.numbered("contentType") { taken.contains($0) }
                arguments.append(Argument(name: name, type: .optional(.named("String")), isOptional: true, parameter: nil, isContentType: true))
            }
        }
        let cache = endpoint.returnsValue ? endpoint.cache : nil
        let responseType: SwiftType? = switch endpoint.responseFormat {
        case .data: .named("Data")
        case .text: .named("String")
        case .json, .events, .jsonLines, .jsonSequence, .multipart: endpoint.response.map(context.swiftType)
        }
        self.init(
            endpoint: endpoint, repository: repository.name.name, arguments: arguments,
            responseType: responseType, isCached: cache != nil,
            defaultPolicy: cache?.settings.policy.rawValue ?? "networkFirst", hasStream: cache != nil && context.spec.constructs.streams)
    }
}

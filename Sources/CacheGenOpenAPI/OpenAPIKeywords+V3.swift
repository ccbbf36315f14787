/// The tables of OpenAPI 3.0, 3.1 and 3.2: every object kind, every key.
extension OpenAPIKeywords {
    // Reasons shared by many keys.
    static let documentation = "documentation, which the generated code does not carry"
    static let serverCheck = "a constraint the server checks; the client sends and decodes values without validating them"
    static let credentials = "credentials are the app's to send (a headers provider or an Authenticator), not the generated code's"
    static let examples = "an example, for documentation"
    static let headers =
        "a call returns its body; the runtime reads the caching and paging headers itself (Cache-Control, ETag, Link), and middleware sees every header"

    /// OpenAPI 3.0, 3.1 and 3.2.
    package static let v3 = OpenAPIKeywords(tables: v3Tables, root: .document, components: ["components"])

    static let v3Tables: [Kind: Table] = [
        .document: Table(
            title: "an OpenAPI Object", schemaNames: [],
            keys: merged(
                mapped([
                    ("openapi", .leaf), ("info", .object(.info)), ("servers", .array(.object(.server))), ("paths", .object(.paths)),
                    ("components", .object(.components)), ("tags", .array(.object(.tag))),
                    // Left out with a warning of its own by the front stage.
                    ("webhooks", .leaf),
                ]),
                noEffect(["security"], credentials), noEffect(["externalDocs"], documentation),
                noEffect(["jsonSchemaDialect"], "schemas are read keyword by keyword, and each keyword is checked by this walk"),
                warned("$self", "cachegen resolves each $ref against the path of the file it is in"))),
        .info: Table(
            title: "an Info Object", schemaNames: ["info"],
            keys: merged(
                // The title names the repository of untagged operations; the description documents it.
                mapped([("title", .leaf), ("description", .leaf)]),
                noEffect(["summary", "termsOfService", "contact", "license"], documentation),
                noEffect(["version"], "the version of the document, which no call sends"))),
        .contact: Table(title: "a Contact Object", schemaNames: ["contact"], keys: noEffect(["name", "url", "email"], documentation)),
        .license: Table(title: "a License Object", schemaNames: ["license"], keys: noEffect(["name", "identifier", "url"], documentation)),
        .server: Table(
            title: "a Server Object", schemaNames: ["server"],
            keys: merged(
                // The document's first server's URL is the base URL when it is absolute and has no
                // variables; an operation's own takes each variable's default
                // (`OpenAPIServers.swift`).
                mapped([("url", .leaf)]), noEffect(["description", "name"], documentation),
                noEffect(["variables"], "read where an operation's own server takes their defaults; the document's base URL is the app's to give"))),
        .serverVariable: Table(
            title: "a Server Variable Object", schemaNames: ["servervariable"],
            keys: noEffect(["enum", "default", "description"], "read where an operation's own server takes their defaults; the document's base URL is the app's to give")),
        .components: Table(
            title: "a Components Object", schemaNames: ["components"],
            keys: merged(
                mapped([
                    ("schemas", .map(.object(.schema))), ("responses", .map(.object(.response))),
                    ("parameters", .map(.object(.parameter))), ("requestBodies", .map(.object(.requestBody))),
                    ("pathItems", .map(.object(.pathItem))), ("mediaTypes", .map(.object(.mediaType))),
                ]),
                noEffect(["examples"], examples), noEffect(["headers"], headers), noEffect(["securitySchemes"], credentials),
                noEffect(["links"], "links describe calls an app may make next, with the methods it already has"),
                noEffect(["callbacks"], "callbacks are requests the server makes; each operation that has one is warned about"))),
        .paths: Table(title: "a Paths Object", schemaNames: ["paths"], keys: [:], patterned: .paths(.object(.pathItem))),
        .pathItem: Table(
            title: "a Path Item Object", schemaNames: ["pathitem"],
            keys: merged(
                mapped([
                    ("$ref", .leaf), ("parameters", .array(.object(.parameter))),
                    ("get", .object(.operation)), ("put", .object(.operation)), ("post", .object(.operation)),
                    ("delete", .object(.operation)), ("options", .object(.operation)), ("head", .object(.operation)),
                    ("patch", .object(.operation)), ("query", .object(.operation)),
                    // Left out with a warning of its own: cachegen does not call TRACE.
                    ("trace", .leaf),
                    ("additionalOperations", .map(.object(.operation))),
                    // The endpoints' own server (`OpenAPIServers.swift`).
                    ("servers", .array(.object(.server))),
                ]),
                noEffect(["summary", "description"], documentation))),
        .operation: Table(
            title: "an Operation Object", schemaNames: ["operation"],
            keys: merged(
                mapped([
                    ("tags", .leaf), ("summary", .leaf), ("description", .leaf), ("operationId", .leaf),
                    ("parameters", .array(.object(.parameter))), ("requestBody", .object(.requestBody)),
                    ("responses", .object(.responses)),
                    // Left out with a warning of its own, naming the operation.
                    ("callbacks", .leaf),
                    // The endpoint's own server (`OpenAPIServers.swift`).
                    ("servers", .array(.object(.server))),
                ]),
                noEffect(["externalDocs"], documentation),
                noEffect(["deprecated"], "documentation: the method still calls the operation"),
                noEffect(["security"], credentials)),
            // What an operation's `$ref` points to is read there (DigitalOcean's are files).
            referable: true),
        .externalDocumentation: Table(
            title: "an External Documentation Object", schemaNames: ["externaldocumentation", "externaldocs"],
            keys: noEffect(["description", "url"], documentation)),
        .parameter: Table(
            title: "a Parameter Object", schemaNames: ["parameter"],
            keys: merged(
                mapped([
                    ("name", .leaf), ("in", .leaf), ("required", .leaf), ("style", .leaf), ("explode", .leaf),
                    ("schema", .object(.schema)), ("content", .map(.object(.mediaType))),
                ]),
                noEffect(["description", "deprecated"], documentation), noEffect(["example", "examples"], examples),
                noEffect(["allowEmptyValue"], "the client sends the value it is given, an empty one too"),
                noEffect(["allowReserved"], "a reserved character sent percent-encoded is the same value to the server")),
            referable: true),
        .requestBody: Table(
            title: "a Request Body Object", schemaNames: ["requestbody"],
            keys: merged(mapped([("content", .map(.object(.mediaType))), ("required", .leaf)]), noEffect(["description"], documentation)),
            referable: true),
        .mediaType: Table(
            title: "a Media Type Object", schemaNames: ["mediatype"],
            keys: merged(
                mapped([("schema", .object(.schema)), ("itemSchema", .object(.schema)), ("encoding", .map(.object(.encoding)))]),
                noEffect(["example", "examples"], examples), noEffect(["description"], documentation),
                warned("prefixEncoding", "cachegen sends and reads multipart parts by name, not by position"),
                warned("itemEncoding", "cachegen sends and reads multipart parts by name, not by position")),
            referable: true),
        .encoding: Table(
            title: "an Encoding Object", schemaNames: ["encoding"],
            keys: merged(
                // A part's `headers` are its header fields; the multipart mapping warns where it
                // cannot carry them (`OpenAPIMultipart.swift`).
                mapped([("contentType", .leaf), ("style", .leaf), ("explode", .leaf), ("headers", .leaf)]),
                noEffect(["allowReserved"], "a reserved character sent percent-encoded is the same value to the server"),
                warned("encoding", "cachegen sends and reads nested multipart parts as one part"),
                warned("prefixEncoding", "cachegen sends and reads multipart parts by name, not by position"),
                warned("itemEncoding", "cachegen sends and reads multipart parts by name, not by position"))),
        .responses: Table(
            title: "a Responses Object", schemaNames: ["responses"],
            keys: noEffect(["default"], "a call returns its success response; any other answer is an error carrying its status and body"),
            patterned: .statusCodes(.object(.response))),
        .response: Table(
            title: "a Response Object", schemaNames: ["response"],
            keys: merged(
                mapped([("content", .map(.object(.mediaType)))]), noEffect(["description", "summary"], documentation),
                noEffect(["headers"], headers), noEffect(["links"], "links describe calls an app may make next, with the methods it already has")),
            referable: true),
        .callback: Table(title: "a Callback Object", schemaNames: ["callback", "callbacks"], keys: [:], patterned: .any(.object(.pathItem)), referable: true),
        .example: Table(
            title: "an Example Object", schemaNames: ["example"],
            keys: noEffect(["summary", "description", "value", "externalValue", "dataValue", "serializedValue"], examples), referable: true),
        .link: Table(
            title: "a Link Object", schemaNames: ["link"],
            keys: noEffect(
                ["operationRef", "operationId", "parameters", "requestBody", "description", "server"],
                "links describe calls an app may make next, with the methods it already has"),
            referable: true),
        .header: Table(
            title: "a Header Object", schemaNames: ["header"],
            keys: noEffect(
                ["description", "required", "deprecated", "schema", "content", "style", "explode", "allowEmptyValue", "allowReserved", "example", "examples"],
                headers),
            referable: true),
        .tag: Table(
            title: "a Tag Object", schemaNames: ["tag"],
            keys: merged(
                // The first tag names a repository (one of kind `nav`, or of no kind);
                // the description (else the summary) documents it.
                mapped([("name", .leaf), ("description", .leaf), ("summary", .leaf), ("kind", .leaf)]),
                noEffect(["externalDocs"], documentation),
                noEffect(["parent"], "documentation: tags nest in a document's navigation, while each first tag still has a repository of its own"))),
        .reference: Table(
            title: "a Reference Object", schemaNames: ["reference"],
            keys: merged(mapped([("$ref", .leaf), ("description", .leaf)]), noEffect(["summary"], documentation))),
        .schema: Table(
            title: "a Schema Object", schemaNames: ["schema"],
            keys: merged(
                mapped([
                    ("type", .leaf), ("format", .leaf), ("enum", .leaf), ("const", .leaf), ("required", .leaf), ("nullable", .leaf),
                    ("title", .leaf), ("description", .leaf), ("$ref", .leaf),
                    // Followed when they lead to the schema they are written in (`"#"`, a
                    // `$dynamicAnchor` of it); where not, the reference reader warns.
                    ("$recursiveRef", .leaf), ("$dynamicRef", .leaf),
                    ("properties", .map(.object(.schema))), ("additionalProperties", .object(.schema)), ("items", .object(.schema)),
                    ("allOf", .array(.object(.schema))), ("oneOf", .array(.object(.schema))), ("anyOf", .array(.object(.schema))),
                    ("discriminator", .object(.discriminator)), ("$defs", .map(.object(.schema))),
                    ("definitions", .map(.object(.schema))),
                    // Read where a Server-Sent Event's `data` is JSON (OpenAPI 3.2's `itemSchema`);
                    // elsewhere the value is the string the server sends.
                    ("contentMediaType", .leaf), ("contentSchema", .object(.schema)),
                ]),
                noEffect(
                    [
                        "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
                        "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "not", "contains", "minContains",
                        "maxContains", "propertyNames", "dependentRequired", "unevaluatedItems", "unevaluatedProperties", "if",
                    ], serverCheck),
                noEffect(["default"], "the server applies it; a value the server leaves out decodes as nil"),
                noEffect(["readOnly", "writeOnly"], "one model serves requests and responses; a read-only value sent back is the server's to ignore"),
                noEffect(["deprecated", "externalDocs", "$comment"], documentation), noEffect(["example", "examples"], examples),
                noEffect(["xml"], "cachegen reads and writes JSON, never XML"),
                noEffect(["$schema", "$vocabulary", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"], "it names a schema for references; cachegen follows $ref by JSON pointer"),
                noEffect(["contentEncoding"], "the value stays the text the server sends, as a `format: byte` string does"),
                warned("then", "properties and types a condition adds are not mapped; values decode as the rest of the schema says"),
                warned("else", "properties and types a condition adds are not mapped; values decode as the rest of the schema says"),
                warned("dependentSchemas", "properties and types a condition adds are not mapped; values decode as the rest of the schema says"),
                warned("dependencies", "properties and types a condition adds are not mapped; values decode as the rest of the schema says"),
                warned("patternProperties", "keys matched by a pattern are not kept; add additionalProperties to keep them"),
                warned("prefixItems", "an array's items are typed by \"items\" alone, not by position"))),
        .discriminator: Table(
            title: "a Discriminator Object", schemaNames: ["discriminator"],
            keys: mapped([("propertyName", .leaf), ("mapping", .leaf), ("defaultMapping", .leaf)])),
        .xml: Table(
            title: "an XML Object", schemaNames: ["xml"],
            keys: noEffect(["name", "namespace", "prefix", "attribute", "wrapped", "nodeType"], "cachegen reads and writes JSON, never XML")),
        .securityScheme: Table(
            title: "a Security Scheme Object",
            schemaNames: ["securityscheme", "apikeysecurityscheme", "httpsecurityscheme", "oauth2securityscheme", "openidconnectsecurityscheme"],
            keys: noEffect(
                ["type", "description", "name", "in", "scheme", "bearerFormat", "flows", "openIdConnectUrl", "oauth2MetadataUrl", "deprecated"],
                credentials),
            referable: true),
        .oauthFlows: Table(
            title: "an OAuth Flows Object", schemaNames: ["oauthflows"],
            keys: noEffect(["implicit", "password", "clientCredentials", "authorizationCode", "deviceAuthorization"], credentials)),
        .oauthFlow: Table(
            title: "an OAuth Flow Object",
            schemaNames: [
                "oauthflow", "implicitoauthflow", "passwordoauthflow", "clientcredentialsflow", "authorizationcodeoauthflow", "implicit",
                "password", "clientcredentials", "authorizationcode", "deviceauthorization",
            ],
            keys: noEffect(["authorizationUrl", "tokenUrl", "refreshUrl", "scopes", "deviceAuthorizationUrl"], credentials)),
        .securityRequirement: Table(
            title: "a Security Requirement Object", schemaNames: ["securityrequirement"], keys: [:], patterned: .any(.leaf)),
    ]
}

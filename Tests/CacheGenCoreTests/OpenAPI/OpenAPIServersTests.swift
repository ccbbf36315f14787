import CacheGenCore
import Foundation
import Testing

@testable import CacheGenOpenAPI

/// An operation's own `servers` (or its path item's): the endpoint's `"server"`, sent there
/// rather than to the client's base URL; what cannot be chosen faithfully is a warning that
/// says what was chosen. And `"server"` in a spec, with its errors.
@Suite struct OpenAPIServersTests {
    typealias Support = OpenAPITestSupport

    static let document = """
        openapi: 3.0.3
        info: { title: Files API, version: "1" }
        servers: [{ url: https://api.example.com/v1/ }]
        paths:
          /files:
            get:
              operationId: listFiles
              responses: { "204": { description: none } }
            post:
              operationId: uploadFile
              servers: [{ url: "https://Upload.Example.com/v1/" }, { url: https://other.example.com }]
              responses: { "204": { description: none } }
          /sessions:
            servers: [{ url: "https://{region}.upload.example.com/{version}", variables: { region: { default: eu, enum: [eu, us] }, version: { enum: [v2, v3] } } }]
            get:
              operationId: listSessions
              responses: { "204": { description: none } }
            delete:
              operationId: deleteSessions
              servers: [{ url: /v2/sessions-api }]
              responses: { "204": { description: none } }
          /mirrors:
            get:
              operationId: listMirrors
              servers: [{ url: https://mirror.example.com/ }, { url: https://api.example.com/v1/ }]
              responses: { "204": { description: none } }
          /agents:
            get:
              operationId: askAgent
              servers: [{ url: "https://{agent_url}", variables: { agent_url: { default: "{your-agent-url}" } } }]
              responses: { "204": { description: none } }
            post:
              operationId: askNowhere
              servers: [{ url: "https://{host}" }]
              responses: { "204": { description: none } }
            put:
              operationId: askPresigned
              servers: [{ url: "https://" }]
              responses: { "204": { description: none } }
        """

    static func servers(_ output: Generator.Output) throws -> [String: String] {
        let source = try #require(output.source)
        var found: [String: String] = [:]
        for block in source.components(separatedBy: "static var ").dropFirst() {
            let name = String(block.prefix { $0 != ":" })
            guard let range = block.range(of: "server: \""), let end = block[range.upperBound...].firstIndex(of: "\"") else { continue }
            found[name] = String(block[range.upperBound..<end])
        }
        return found
    }

    @Test func operationsAndPathItemsWithServersOfTheirOwnAreSentThere() throws {
        let output = Support.generate(["api.yaml": Self.document], main: "api.yaml")
        #expect(
            Support.messages(output) == [
                "api.yaml:14:84: warning: the server variable \"region\" of operation \"listSessions\" is sent as its default \"eu\", one of \"eu\", \"us\"; the method has no argument for it",
                "api.yaml:14:125: warning: the server variable \"version\" of operation \"listSessions\" has no default, so it is sent as \"v2\", the first of its enum",
                "api.yaml:30:24: warning: the server \"https://{agent_url}\" (\"https://{your-agent-url}\") of operation \"askAgent\" is not an absolute http or https URL, so it is sent to the client's base URL; call it through a client whose baseURL is its real server",
                "api.yaml:34:24: warning: the server variable \"host\" of operation \"askNowhere\" has no default or enum to choose from, so it is sent to the client's base URL",
                "api.yaml:38:24: warning: the server \"https://\" of operation \"askPresigned\" is not an absolute http or https URL, so it is sent to the client's base URL; call it through a client whose baseURL is its real server",
            ])
        // The first server, scheme and host lower-cased; servers that include the document's
        // own (`listMirrors`) are the client's base URL; an operation's own `servers` win over
        // its path item's (`deleteSessions`), and a relative one is resolved against the
        // document's server.
        #expect(
            try Self.servers(output) == [
                "uploadFile": "https://upload.example.com/v1",
                "listSessions": "https://eu.upload.example.com/v2",
                "deleteSessions": "https://api.example.com/v2/sessions-api",
            ])
    }

    /// `"server"` in a spec: written into the endpoint as keys hold it (scheme and host
    /// lower-case, no trailing `/`), and an error at its value unless it is an absolute http
    /// or https URL without a query, a fragment or a variable.
    @Test func aSpecsServer() throws {
        func spec(_ server: String) -> String {
            #"{ "version": 1, "repositories": { "R": { "endpoints": { "upload": { "method": "POST", "path": "/files", "server": \#(server) } } } } }"#
        }
        let lower = Generator.generate(Data(spec(#""https://Upload.Example.com/v1/""#).utf8), path: "spec.json", options: .init())
        #expect(lower.diagnostics.isEmpty, "\(lower.diagnostics)")
        let source = try #require(lower.source)
        #expect(source.contains(#"server: "https://upload.example.com/v1"\#n"#))
        #expect(source.contains("/// Sent to https://upload.example.com/v1, this endpoint's own server, not the client's `baseURL`."))
        let message = "spec.json:1:115: error: \"server\" must be an absolute http or https URL without a query or fragment, such as \"https://upload.example.com/v1\""
        for bad in [#""/v2""#, #""HTTPS://Upload.Example.com""#, #""ftp://files.example.com""#, #""https://{host}/v1""#, #""https://x.example.com/v1?a=1""#, #""https://""#] {
            let output = Generator.generate(Data(spec(bad).utf8), path: "spec.json", options: .init())
            #expect(Support.messages(output) == [message], "\(bad)")
        }
        let number = Generator.generate(Data(spec("42").utf8), path: "spec.json", options: .init())
        #expect(Support.messages(number) == ["spec.json:1:115: error: \"server\" must be a string; found a number"])
    }

    /// Box's uploads, downloads and OAuth operations, and DigitalOcean's inference ones, go to
    /// their own servers, with no warning; the two DigitalOcean servers no URL can be made of
    /// (a placeholder default, a presigned URL the app gets at run time) are the only ones.
    @Test func theCorpusOperationsGoToTheirServers() throws {
        let corpus = "Tests/Fixtures/ThirdParty/openapi-corpus/"
        let box = try OpenAPIReferenceFilesTests.spec(corpus + "box/openapi.json")
        #expect(box.diagnostics.map(\.description) == [])
        let boxServers = try #require(box.spec).repositories.flatMap(\.endpoints).compactMap(\.server)
        #expect(
            Dictionary(grouping: boxServers, by: { $0 }).mapValues(\.count) == [
                "https://upload.box.com/api/2.0": 9, "https://api.box.com": 3, "https://account.box.com/api/oauth2": 1,
                "https://dl.boxcloud.com/2.0": 1,
            ])

        let digitalOcean = try OpenAPIReferenceFilesTests.spec(corpus + "digitalocean/specification/DigitalOcean-public.v2.yaml")
        let warnings = digitalOcean.diagnostics.map(\.description).filter { $0.contains("server") }
        #expect(
            warnings == [
                corpus
                    + "digitalocean/specification/resources/inference/agent_inference_create_chat_completion.yml:9:10: warning: the server \"https://{agent_url}\" (\"https://{your-agent-url}\") of operation \"agentInference_create_chat_completion\" is not an absolute http or https URL, so it is sent to the client's base URL; call it through a client whose baseURL is its real server",
                corpus
                    + "digitalocean/specification/resources/inference/inference_upload_batch_file.yml:28:10: warning: the server \"https://\" of operation \"inference_upload_batch_file\" is not an absolute http or https URL, so it is sent to the client's base URL; call it through a client whose baseURL is its real server",
            ])
        let inference = try #require(digitalOcean.spec).repositories.flatMap(\.endpoints).filter { $0.server != nil }
        #expect(inference.count == 17 && inference.allSatisfy { $0.server == "https://inference.do-ai.run" })
    }
}

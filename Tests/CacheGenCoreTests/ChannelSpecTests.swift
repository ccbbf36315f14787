import CacheGenCore
import Foundation
import Testing

/// `"channel": true`, a stream that is a long-lived channel, in a spec's `response`, an
/// overlay's operation rule and `x-cachegen`: what is generated, and every error with its exact
/// message and location.
@Suite struct ChannelSpecTests {
    typealias Support = OpenAPITestSupport

    @Test func aChannelIsMarkedInItsEndpointAndItsDocAndOtherStreamsAreNot() throws {
        let spec = #"""
        {
          "version": 1,
          "models": { "Tick": { "properties": { "n": "int" } } },
          "repositories": { "R": { "endpoints": {
            "feed": { "path": "/feed", "response": { "type": "Tick", "format": "events", "channel": true } },
            "lines": { "path": "/lines", "response": { "type": "Tick", "format": "jsonLines", "channel": true } },
            "run": { "path": "/run", "response": { "type": "Tick", "format": "events", "channel": false } },
            "plain": { "path": "/plain", "response": { "type": "Tick", "format": "events" } }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "spec.json", options: .init())
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        #expect(source.contains(#"Endpoint(name: "R.feed", cache: nil, coding: JSONCoding(dates: .iso8601), format: .events, isChannel: true)"#))
        #expect(Self.channels(in: source) == ["feed", "lines"])
        // The protocol's and the live repository's doc comments.
        let events = "A long-lived channel: connected again (with `Last-Event-ID` once an event had an id) when the server ends the response."
        #expect(source.components(separatedBy: events).count == 3)
        #expect(source.components(separatedBy: "A long-lived channel: connected again when the server ends the response.").count == 3)
    }

    /// The names of the `Endpoints` constants marked `isChannel: true`.
    static func channels(in source: String) -> Set<String> {
        let constants = source.components(separatedBy: "static var ").dropFirst()
        return Set(constants.filter { $0.prefix { $0 != "}" }.contains("isChannel: true") }.map { String($0.prefix { $0 != ":" }) })
    }

    @Test func channelErrors() {
        let spec = #"""
        {
          "version": 1,
          "models": { "Tick": { "properties": { "n": "int" } } },
          "repositories": { "R": { "endpoints": {
            "a": { "path": "/a", "response": { "type": "Tick", "format": "json", "channel": true } },
            "b": { "path": "/b", "response": { "format": "text", "channel": true } },
            "c": { "path": "/c", "response": { "type": "Tick", "format": "events", "channel": "always" } },
            "d": { "path": "/d", "response": { "type": "Tick", "format": "events", "chanel": true } }
          } } }
        }
        """#
        #expect(
            diagnostics(spec) == [
                #"spec.json:5:74: error: endpoint "a" is marked "channel", but its response is not a stream (Server-Sent Events, JSON Lines or JSON text sequences); remove "channel""#,
                #"spec.json:6:58: error: endpoint "b" is marked "channel", but its response is not a stream (Server-Sent Events, JSON Lines or JSON text sequences); remove "channel""#,
                #"spec.json:7:87: error: "channel" must be true or false; found a string"#,
                #"spec.json:8:76: error: unknown key "chanel" in "response"; did you mean "channel"?"#,
            ])
    }

    /// An SSE operation, a JSON Lines operation marked in its `x-cachegen`, an operation that
    /// answers JSON and also streams (its `…Events` method is the channel), and a JSON one.
    static let paths = """
        "/feed": { "get": { "operationId": "feed",
          "responses": { "200": { "description": "ok", "content": { "text/event-stream": { "schema": { "$ref": "#/components/schemas/Tick" } } } } } } },
        "/lines": { "get": { "operationId": "lines", "x-cachegen": { "channel": true },
          "responses": { "200": { "description": "ok", "content": { "application/jsonl": { "schema": { "$ref": "#/components/schemas/Tick" } } } } } } },
        "/both": { "get": { "operationId": "both",
          "responses": { "200": { "description": "ok", "content": {
            "application/json": { "schema": { "$ref": "#/components/schemas/Tick" } },
            "text/event-stream": { "schema": { "$ref": "#/components/schemas/Tick" } } } } } } },
        "/tick": { "get": { "operationId": "tick",
          "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Tick" } } } } } } }
        """
    static let schemas = "\"Tick\": { \"type\": \"object\", \"required\": [\"n\"], \"properties\": { \"n\": { \"type\": \"integer\" } } }"

    @Test func theOverlayAndXCachegenMarkChannels() throws {
        let document = Support.document(paths: Self.paths, schemas: Self.schemas)
        let overlay = #"{ "openapi": "api.json", "operations": { "feed": { "channel": true }, "both": { "channel": true } } }"#
        let output = Support.generate(["Things.cachegen.json": overlay, "api.json": document], main: "Things.cachegen.json")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        let source = try #require(output.source)
        // The operation that answers JSON too: its JSON method is not a stream, so the rule's
        // `channel` went to its event stream.
        #expect(Self.channels(in: source) == ["feed", "lines", "bothEvents"])
    }

    @Test func aChannelRuleOnAnOperationThatDoesNotStreamIsAnError() {
        let document = Support.document(paths: Self.paths, schemas: Self.schemas)
        let overlay = #"{ "openapi": "api.json", "operations": { "tick": { "channel": true }, "feed": { "channel": 1 } } }"#
        let output = Support.generate(["Things.cachegen.json": overlay, "api.json": document], main: "Things.cachegen.json")
        #expect(
            Support.messages(output) == [
                #"Things.cachegen.json:1:52: error: endpoint "tick" is marked "channel", but its response is not a stream (Server-Sent Events, JSON Lines or JSON text sequences); remove "channel""#,
                #"Things.cachegen.json:1:92: error: "channel" must be true or false; found a number"#,
            ])
    }
}

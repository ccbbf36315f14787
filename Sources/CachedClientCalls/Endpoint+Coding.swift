import CachedClientHTTP
@_spi(Generated) import CachedClientValues
import Foundation

extension Endpoint {
    /// The request's body as JSON, or `nil` without one; a failure is the endpoint's
    /// `encodingFailed` error.
    package func encodedBody(of request: EndpointRequest) throws -> Data? {
        do {
            return try request.encodedBody(coding)
        } catch {
            throw CachedClientError.encodingFailed(endpoint: name, reason: String(describing: error))
        }
    }

    /// The digest of the body the cache key holds, from the body `encodedBody(of:)` gave;
    /// `nil` when the body is not part of the key.
    package func bodyDigest(of request: EndpointRequest, encoded: Data?) throws -> String? {
        guard request.bodyIsKey else { return nil }
        do {
            return try request.keyedBody(coding, encoded: encoded).map { SHA256.hex(of: $0) }
        } catch {
            throw CachedClientError.encodingFailed(endpoint: name, reason: String(describing: error))
        }
    }

    /// Decodes an answer; a failure is the endpoint's `decodingFailed` error, saying where
    /// and why. A JSON endpoint's body that is not JSON at all (an HTML page, an empty or
    /// truncated body) is described instead: its `contentType` (the response's, when known),
    /// its length and its first bytes.
    package func decode<T: Decodable>(_ type: T.Type, from body: Data, contentType: String? = nil) throws -> T {
        do {
            return try value(type, from: body)
        } catch {
            if format == .json, (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)) == nil {
                throw CachedClientError.decodingFailed(
                    endpoint: name, reason: CachedClientError.bodyNotJSONReason(body, contentType: contentType))
            }
            throw CachedClientError.decodingFailed(endpoint: name, reason: CallEvents.reason(error))
        }
    }

    /// The value a body holds: JSON decoded, or, for `data` and `text` endpoints, the bytes
    /// or the UTF-8 text themselves (`text` bodies are stored in UTF-8, see `storedBody(of:)`).
    package func value<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        switch format {
        case .data:
            if let value = body as? T { return value }
            throw BodyFormatError(reason: "a data response is read as Data, not \(T.self)")
        case .text:
            guard let text = String(data: body, encoding: .utf8) else {
                throw BodyFormatError(reason: "the stored text is not UTF-8")
            }
            if let value = text as? T { return value }
            throw BodyFormatError(reason: "a text response is read as String, not \(T.self)")
        case .multipart:
            let (contentType, bytes) = try Self.storedMultipart(body)
            guard let boundary = MultipartParser.boundary(of: contentType) else {
                throw BodyFormatError(reason: "the multipart response's Content-Type \"\(contentType)\" names no boundary")
            }
            let parts = try MultipartParser.parse(bytes, boundary: boundary)
            return try T(from: MultipartDecoder(parts: parts, coding: coding))
        case .json, .events, .jsonLines, .jsonSequence:
            return try coding.makeDecoder().decode(type, from: body)
        }
    }

    /// A stored multipart answer as a MIME entity: `Content-Type: …`, CRLF, CRLF, then the
    /// body as it arrived, so the boundary is read back without the response's headers.
    package static func storedMultipart(contentType: String, body: Data) -> Data {
        let line = contentType.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) }
        return Data(("Content-Type: " + String(line) + "\r\n\r\n").utf8) + body
    }

    /// The `Content-Type` and the body of a stored multipart answer (`storedMultipart(contentType:body:)`).
    package static func storedMultipart(_ stored: Data) throws -> (contentType: String, body: Data) {
        let prefix = Array("Content-Type: ".utf8)
        let bytes = [UInt8](stored.prefix(4096))
        guard bytes.starts(with: prefix), let end = MultipartParser.find(Array("\r\n\r\n".utf8), in: bytes, from: 0) else {
            throw BodyFormatError(reason: "the stored multipart answer does not start with its Content-Type")
        }
        let contentType = String(decoding: bytes[prefix.count..<end], as: UTF8.self)
        return (contentType, stored.dropFirst(end + 4))
    }

    /// The body as it is decoded and stored: a `text` answer in another charset than UTF-8
    /// (its `Content-Type`'s `charset`) is turned into UTF-8 once, and a `multipart` answer
    /// is kept with its `Content-Type` before it (`storedMultipart`), so that a stored entry
    /// reads back without its headers; every other body as it arrived.
    package func storedBody(of response: HTTPResponse) throws -> Data {
        if format == .multipart {
            let contentType = response.header("Content-Type") ?? ""
            guard MultipartParser.boundary(of: contentType) != nil else {
                throw CachedClientError.decodingFailed(
                    endpoint: name,
                    reason: contentType.isEmpty
                        ? "the multipart response has no Content-Type, so no boundary" : "the multipart response's Content-Type \"\(contentType)\" names no boundary")
            }
            return Self.storedMultipart(contentType: contentType, body: response.body)
        }
        guard format == .text, let charset = Self.charset(of: response.header("Content-Type")) else { return response.body }
        guard let encoding = Self.encoding(named: charset) else {
            throw CachedClientError.decodingFailed(endpoint: name, reason: "the text's charset \"\(charset)\" is not supported")
        }
        if encoding == .utf8 { return response.body }
        guard let text = String(data: response.body, encoding: encoding) else {
            throw CachedClientError.decodingFailed(endpoint: name, reason: "the text is not valid \(charset)")
        }
        return Data(text.utf8)
    }

    /// The `charset` parameter of a `Content-Type` field, lower-cased and unquoted.
    package static func charset(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            return value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return nil
    }

    /// The encodings text responses may name, by their IANA names and common aliases.
    package static func encoding(named charset: String) -> String.Encoding? {
        switch charset {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": .isoLatin1
        case "iso-8859-2", "latin2": .isoLatin2
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1251", "cp1251": .windowsCP1251
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        case "utf-32": .utf32
        case "utf-32le": .utf32LittleEndian
        case "utf-32be": .utf32BigEndian
        case "shift_jis", "shift-jis": .shiftJIS
        case "euc-jp": .japaneseEUC
        default: nil
        }
    }
}

/// A body that is not what its endpoint's format reads.
package struct BodyFormatError: Error, CustomStringConvertible {
    /// Why, for the `decodingFailed` error.
    package let reason: String

    package var description: String { reason }
}

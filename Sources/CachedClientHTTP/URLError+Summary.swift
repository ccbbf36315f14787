import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError.Code {
    /// The code with what it means ("URLError -1001 (timed out)"), so that a log line says a
    /// stall timed out or a reset lost the connection; other codes by number.
    package var summary: String {
        let meaning: String? =
            switch self {
            case .timedOut: "timed out"
            case .networkConnectionLost: "connection lost"
            case .cannotConnectToHost: "cannot connect to host"
            case .cannotFindHost: "cannot find host"
            case .dnsLookupFailed: "DNS lookup failed"
            case .notConnectedToInternet: "not connected to the internet"
            case .badServerResponse: "bad server response"
            case .cannotParseResponse: "cannot parse response"
            case .secureConnectionFailed: "secure connection failed"
            default: nil
            }
        return "URLError \(rawValue)" + (meaning.map { " (\($0))" } ?? "")
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// `error` as the transport reports it: a body cut short is `.networkConnectionLost`.
    ///
    /// Apple's Foundation says so already. On Linux libcurl's "transfer closed with 13 bytes
    /// remaining to read" (a `Content-Length` the connection did not deliver) and "transfer
    /// closed with outstanding read data remaining" (a chunked body without its last chunk)
    /// arrive as `.unknown`, which no retry rule, fallback or live query would recognise as
    /// the lost connection it is. The original text stays in the error's user info.
    package static func reportingCutShort(_ error: any Error) -> any Error {
        guard let error = error as? URLError, error.code == .unknown,
              let text = error.userInfo[NSLocalizedDescriptionKey] as? String, text.hasPrefix("transfer closed")
        else { return error }
        return URLError(.networkConnectionLost, userInfo: error.userInfo)
    }
}

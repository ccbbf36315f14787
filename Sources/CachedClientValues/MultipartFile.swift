import Foundation

/// A file sent as one part of a `multipart/form-data` request body: its bytes, the file
/// name the server is told, and its media type.
///
/// Models of multipart bodies hold one where the API takes a file upload. Outside a
/// multipart body (in JSON) it is written as an object of the three, the data in base64.
public struct MultipartFile: Sendable, Hashable, Codable {
    /// The file's bytes.
    public var data: Data
    /// The file name sent in the part's `Content-Disposition`.
    public var filename: String
    /// The part's `Content-Type`, such as `image/png`.
    public var contentType: String

    /// Creates a file part; `application/octet-stream` unless a media type is given.
    public init(data: Data, filename: String, contentType: String = "application/octet-stream") {
        self.data = data
        self.filename = filename
        self.contentType = contentType
    }
}

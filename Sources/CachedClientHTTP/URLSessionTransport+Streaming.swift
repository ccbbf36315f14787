import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

extension URLSessionTransport {
    /// Sends the request on a data task whose delegate yields each chunk as it arrives
    /// (`URLSession.bytes(for:)` does not exist in FoundationNetworking); cancelling the
    /// reading task, or dropping the body, cancels the data task and so closes the connection.
    ///
    /// Each stream runs in a session of its own, made from `session`'s configuration, because
    /// a session's delegate is fixed when it is made; it is invalidated when the stream ends.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse {
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let delegate = StreamingDelegate(body: continuation)
        let streamingSession = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        let task = streamingSession.dataTask(with: urlRequest(for: request))
        continuation.onTermination = { _ in
            task.cancel()
            streamingSession.finishTasksAndInvalidate()
        }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { head in
                delegate.waitForHead(head)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return HTTPStreamedResponse(statusCode: response.statusCode, headers: Self.headers(of: response), body: body)
    }
}

/// The delegate of one streamed data task: hands on the response's head once, then each
/// chunk of its body, then how it ended.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Who waits for the head; `nil` once it has been answered.
    private let head = Locked<CheckedContinuation<HTTPURLResponse, any Error>?>(nil)
    /// Where the body's chunks go.
    private let body: AsyncThrowingStream<Data, any Error>.Continuation

    package init(body: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.body = body
    }

    /// Registers who waits for the head; called before the task starts.
    package func waitForHead(_ continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
        head.withLock { $0 = continuation }
    }

    /// Answers whoever waits for the head, once.
    private func answerHead(_ result: Result<HTTPURLResponse, any Error>) {
        let waiting = head.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
        waiting?.resume(with: result)
    }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse {
            answerHead(.success(http))
            completionHandler(.allow)
        } else {
            answerHead(.failure(URLError(.badServerResponse)))
            completionHandler(.cancel)
        }
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        body.yield(data)
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        answerHead(.failure(error ?? URLError(.badServerResponse)))
        if let error {
            body.finish(throwing: error)
        } else {
            body.finish()
        }
        session.finishTasksAndInvalidate()
    }
}

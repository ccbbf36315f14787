import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

extension URLSessionTransport {
    /// Sends the request on a data task whose delegate yields each chunk as it arrives
    /// (`URLSession.bytes(for:)` does not exist in FoundationNetworking); cancelling the
    /// reading task, or dropping the body, cancels the data task and so closes the connection.
    /// A task cancelled while it waits for the head throws `CancellationError` at once; the
    /// data task is made, started and cancelled on the session's delegate queue, never on the
    /// caller's thread (`StreamDataTask` says why).
    ///
    /// Each stream runs in a session of its own, made from `session`'s configuration, because
    /// a session's delegate is fixed when it is made; it is invalidated when the stream ends.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse {
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let delegate = StreamingDelegate(body: continuation)
        let streamingSession = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        let task = StreamDataTask(session: streamingSession)
        let urlRequest = urlRequest(for: request)
        continuation.onTermination = { _ in
            task.cancel(invalidatingSession: true)
        }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { head in
                if delegate.waitForHead(head) { task.start(urlRequest) }
            }
        } onCancel: {
            delegate.cancelHead()
            task.cancel()
        }
        return HTTPStreamedResponse(statusCode: response.statusCode, headers: Self.headers(of: response), body: body)
    }
}

/// The delegate of one streamed data task: hands on the response's head once, then each
/// chunk of its body, then how it ended.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Who waits for the head, until it is answered or the wait is cancelled.
    private enum HeadWait {
        case notYet
        case waiting(CheckedContinuation<HTTPURLResponse, any Error>)
        case over
    }

    private let head = Locked(HeadWait.notYet)
    /// Where the body's chunks go.
    private let body: AsyncThrowingStream<Data, any Error>.Continuation

    package init(body: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.body = body
    }

    /// Registers who waits for the head, and whether the task should start: a wait cancelled
    /// before this throws `CancellationError` now, and its request is never sent.
    package func waitForHead(_ continuation: CheckedContinuation<HTTPURLResponse, any Error>) -> Bool {
        let registered = head.withLock { head -> Bool in
            guard case .notYet = head else { return false }
            head = .waiting(continuation)
            return true
        }
        if !registered { continuation.resume(throwing: CancellationError()) }
        return registered
    }

    /// The waiting task was cancelled: it throws `CancellationError` at once.
    package func cancelHead() {
        answerHead(.failure(CancellationError()))
    }

    /// Answers whoever waits for the head, once; later answers are dropped.
    private func answerHead(_ result: Result<HTTPURLResponse, any Error>) {
        let waiting = head.withLock { head -> CheckedContinuation<HTTPURLResponse, any Error>? in
            defer { head = .over }
            guard case .waiting(let continuation) = head else { return nil }
            return continuation
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
        // The stream's session is its own, so only the transport cancels its task: when the
        // reader's task was cancelled or the body dropped. The reader sees that as what it is.
        let error = (error as? URLError)?.code == .cancelled ? CancellationError() : error.map(URLError.reportingCutShort)
        answerHead(.failure(error ?? URLError(.badServerResponse)))
        if let error {
            body.finish(throwing: error)
        } else {
            body.finish()
        }
        session.finishTasksAndInvalidate()
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Middleware that signs every request with a credential and renews it when the server
/// answers 401: once for all calls in flight, however many got the 401, each of which is
/// then sent once more with the new credential.
///
/// When `refresh` fails because the network did (it threw a `URLError`), that error is
/// thrown, so `networkFirst` may still answer from the cache; any other failure is an
/// `AuthenticationError`, the app's cue to ask the user to sign in again. A second 401
/// after a successful refresh is returned as it is (the call fails with status 401).
///
/// The credential lives in this object only: headers a middleware adds are never part of
/// a key, an entry or an event.
///
/// ```swift
/// let auth = Authenticator(bearerToken: keychain.token) { expired in
///     try await session.renewToken(replacing: expired)
/// }
/// let client = CachedClient(baseURL: url, middleware: [auth])
/// ```
public final class Authenticator<Credential: Sendable>: ClientMiddleware {
    private struct State: Sendable {
        package var credential: Credential?
        /// How many refreshes succeeded; a 401 to a request signed before the latest one
        /// retries with the new credential instead of refreshing again.
        package var generation: UInt64 = 0
        package var refreshing: Task<Credential, any Error>?
    }

    private let state: Locked<State>
    private let apply: @Sendable (Credential, inout HTTPRequest) -> Void
    private let refresh: @Sendable (Credential?) async throws -> Credential

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - credential: the current credential; `nil` refreshes before the first request.
    ///   - apply: signs a request with a credential (sets a header, usually).
    ///   - refresh: returns a new credential, given the one the server refused; called
    ///     once however many requests were refused together, and not cancelled when the
    ///     call that started it is.
    public init(
        credential: Credential?,
        apply: @escaping @Sendable (Credential, inout HTTPRequest) -> Void,
        refresh: @escaping @Sendable (_ refused: Credential?) async throws -> Credential
    ) {
        self.state = Locked(State(credential: credential))
        self.apply = apply
        self.refresh = refresh
    }

    /// The credential requests are signed with now.
    public var credential: Credential? {
        state.withLock { $0.credential }
    }

    /// Replaces the credential (after the user signed in again), or forgets it with `nil`.
    public func setCredential(_ credential: Credential?) {
        state.withLock {
            $0.credential = credential
            $0.generation += 1
        }
    }

    /// Signs the request; on a 401 renews the credential (once for all) and sends it again once.
    public func intercept(
        _ request: HTTPRequest, operation: String,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var (credential, generation) = state.withLock { ($0.credential, $0.generation) }
        if credential == nil {
            (credential, generation) = try await renewed(after: generation)
        }
        var signed = request
        if let credential { apply(credential, &signed) }
        let response = try await next(signed)
        guard response.statusCode == 401 else { return response }
        let renewed = try await renewed(after: generation)
        var again = request
        if let credential = renewed.credential { apply(credential, &again) }
        return try await next(again)
    }

    /// A credential newer than `generation`: the current one if a refresh succeeded since,
    /// else the result of the refresh running now or of one started here.
    private func renewed(after generation: UInt64) async throws -> (credential: Credential?, generation: UInt64) {
        let next: RenewalStep<(Credential, UInt64), Task<Credential, any Error>> = state.withLock { state in
            if state.generation > generation, let credential = state.credential, state.refreshing == nil {
                return .current((credential, state.generation))
            }
            if let running = state.refreshing { return .wait(running) }
            let refused = state.credential
            let refresh = self.refresh
            let task = Task { [state = self.state] in
                do {
                    let credential = try await refresh(refused)
                    state.withLock {
                        $0.credential = credential
                        $0.generation += 1
                        $0.refreshing = nil
                    }
                    return credential
                } catch {
                    state.withLock { $0.refreshing = nil }
                    throw error
                }
            }
            state.refreshing = task
            return .wait(task)
        }
        let task: Task<Credential, any Error>
        switch next {
        case .current(let current): return current
        case .wait(let running): task = running
        }
        do {
            let credential = try await task.value
            return (credential, state.withLock { $0.generation })
        } catch let error as URLError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw AuthenticationError.refreshFailed(reason: String(describing: type(of: error)))
        }
    }
}

/// What a caller of `renewed(after:)` does: take the credential a refresh produced since, or wait for one.
private enum RenewalStep<Current, Wait> {
    case current(Current)
    case wait(Wait)
}

extension Authenticator where Credential == String {
    /// An authenticator that sends the credential as `Authorization: Bearer <token>`.
    public convenience init(
        bearerToken: String?, refresh: @escaping @Sendable (_ refused: String?) async throws -> String
    ) {
        self.init(
            credential: bearerToken, apply: { token, request in request.headers["Authorization"] = "Bearer \(token)" },
            refresh: refresh)
    }
}

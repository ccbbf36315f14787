/// The `generate` object: the constructs an app may turn off when it does not use them, so
/// that it does not compile them. Each is on unless set to `false`.
public struct Constructs: Sendable, Hashable {
    /// `…Query` live query factories (and `…PagedQuery` for paged endpoints).
    public var queries = true
    /// `…Stream` methods: the stored value, then the fresh one.
    public var streams = true
    /// `…Pages` sequences of paged endpoints (and their paged queries).
    public var pages = true
    /// Overloads that leave out optional arguments and the policy.
    public var overloads = true

    /// Every construct on.
    public init() {}
}

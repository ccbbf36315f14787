// `import CachedClientRuntime` gives an app the whole runtime. Its layers are targets of their
// own (ARCHITECTURE.md), so that a dependency against the map does not compile; this module
// re-exports them, and with `@_spi(Generated)` what only generated code calls.
@_exported import CachedClientCalls
@_exported import CachedClientFileStore
@_exported import CachedClientHTTP
@_exported import CachedClientMutations
@_exported import CachedClientQueries
@_exported import CachedClientStore
@_exported import CachedClientValues
@_spi(Generated) @_exported import CachedClientCalls
@_spi(Generated) @_exported import CachedClientMutations
@_spi(Generated) @_exported import CachedClientValues

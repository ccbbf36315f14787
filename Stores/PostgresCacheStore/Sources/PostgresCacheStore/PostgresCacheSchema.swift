import PostgresNIO

/// The store's tables, created on first use and migrated forward, one numbered step at a time.
///
/// Every table's name starts with the store's `namespace` (`cachegen` unless the app picks
/// another), so several stores, or a test's stores, share a database without meeting:
///
/// - `<ns>_schema`: one row, the version of the layout below. A store that finds a version
///   newer than it knows refuses to touch the tables (`PostgresCacheStoreError.newerSchema`),
///   so an old build never damages what a newer one wrote.
/// - `<ns>_entries`: one row per entry, by the key's digest (`CacheKey.digest`), holding the
///   full key text (compared on read), the partition, endpoint and path (indexed, for the
///   removal forms), the body as `bytea`, the validators, the server's freshness, the
///   entry's `size` and `last_used` (indexed, for eviction).
/// - `<ns>_usage`: the running total of bytes and entries in 16 rows kept by statement-level
///   triggers (any insert, update or delete, whoever makes it), so `totalSize()` and the
///   size limit read 16 rows, never the entries; 16 so that concurrent writers rarely wait
///   for one another on one row.
/// - `<ns>_removals`: one row, the fleet's removal counter, bumped in the same transaction as
///   every `removeAll…` and announced with `NOTIFY`.
/// - `<ns>_listeners`: one row per process listening for removals (its listening session's
///   backend id and start time) with the last removal it acknowledged; a removal waits for
///   the live ones (see `RemovalListener`).
/// - `<ns>_leases` (version 2): claims for fleet-wide request collapsing, by key digest, with
///   the holder's token and an expiry (seconds since 2001, by the claiming store's clock).
/// - `<ns>_outbox` (version 3): one row per queued mutation (`MutationOutbox`), by partition
///   slot and sequence, holding its id, its partition and the record as JSON `bytea` with a
///   format number; `<ns>_outbox_sequences`, one row per partition slot with the last
///   sequence given, whose row lock orders concurrent enqueues (see
///   `PostgresCacheStore+MutationOutbox.swift`).
///
/// Migrations run in one transaction under a transaction-level advisory lock, so any number
/// of processes opening the store at once create the tables exactly once.
enum PostgresCacheSchema {
    /// The version this build writes.
    static let currentVersion = 3

    /// The statements that bring version `n - 1` to `n`, at index `n - 1`.
    static func migrations(_ ns: String) -> [[String]] {
        [
            // 1: entries, usage, removals, listeners.
            [
                """
                CREATE TABLE \(ns)_entries (
                    digest text PRIMARY KEY,
                    key_text text NOT NULL,
                    endpoint text NOT NULL,
                    partition text,
                    path text NOT NULL,
                    body bytea NOT NULL,
                    stored_at double precision NOT NULL,
                    etag text,
                    last_modified text,
                    fresh_lifetime double precision,
                    fresh_initial_age double precision,
                    fresh_no_cache boolean,
                    fresh_must_revalidate boolean,
                    fresh_stale_if_error double precision,
                    fresh_stale_while_revalidate double precision,
                    size bigint NOT NULL,
                    last_used double precision NOT NULL
                )
                """,
                "CREATE INDEX \(ns)_entries_partition ON \(ns)_entries (partition) WHERE partition IS NOT NULL",
                "CREATE INDEX \(ns)_entries_endpoint_path ON \(ns)_entries (endpoint, path)",
                "CREATE INDEX \(ns)_entries_last_used ON \(ns)_entries (last_used)",
                "CREATE INDEX \(ns)_entries_stored_at ON \(ns)_entries (stored_at)",
                """
                CREATE TABLE \(ns)_usage (
                    shard integer PRIMARY KEY, bytes bigint NOT NULL DEFAULT 0, entries bigint NOT NULL DEFAULT 0
                )
                """,
                "INSERT INTO \(ns)_usage (shard) SELECT generate_series(0, 15)",
                """
                CREATE FUNCTION \(ns)_count_usage() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    added_bytes bigint := 0; added_entries bigint := 0;
                    removed_bytes bigint := 0; removed_entries bigint := 0;
                    -- A random row of the 16, chosen once (in the WHERE clause random() would be drawn per row).
                    chosen integer := floor(random() * 16)::integer % 16;
                BEGIN
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN
                        SELECT coalesce(sum(size), 0), count(*) INTO added_bytes, added_entries FROM new_rows;
                    END IF;
                    IF TG_OP IN ('DELETE', 'UPDATE') THEN
                        SELECT coalesce(sum(size), 0), count(*) INTO removed_bytes, removed_entries FROM old_rows;
                    END IF;
                    IF added_bytes <> removed_bytes OR added_entries <> removed_entries THEN
                        UPDATE \(ns)_usage
                        SET bytes = bytes + added_bytes - removed_bytes, entries = entries + added_entries - removed_entries
                        WHERE shard = chosen;
                    END IF;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER \(ns)_entries_insert AFTER INSERT ON \(ns)_entries
                REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION \(ns)_count_usage()
                """,
                """
                CREATE TRIGGER \(ns)_entries_update AFTER UPDATE ON \(ns)_entries
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION \(ns)_count_usage()
                """,
                """
                CREATE TRIGGER \(ns)_entries_delete AFTER DELETE ON \(ns)_entries
                REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION \(ns)_count_usage()
                """,
                "CREATE TABLE \(ns)_removals (id integer PRIMARY KEY CHECK (id = 1), count bigint NOT NULL)",
                "INSERT INTO \(ns)_removals VALUES (1, 0)",
                """
                CREATE TABLE \(ns)_listeners (
                    pid integer PRIMARY KEY, backend_start timestamptz NOT NULL, seen bigint NOT NULL
                )
                """,
            ],
            // 2: leases for fleet-wide request collapsing.
            [
                """
                CREATE TABLE \(ns)_leases (
                    digest text PRIMARY KEY, holder text NOT NULL, expires_at double precision NOT NULL
                )
                """
            ],
            // 3: the outbox of queued mutations. `slot` is the partition made a non-null key
            // ('-' signed out, '+' and the partition otherwise), so that the keys cover
            // signed-out mutations on every server version (no `NULLS NOT DISTINCT` needed).
            // The primary key is the listing order; `UNIQUE (slot, id)` serves the reads,
            // updates and removals of one mutation.
            [
                """
                CREATE TABLE \(ns)_outbox (
                    slot text NOT NULL,
                    sequence bigint NOT NULL CHECK (sequence > 0),
                    id text NOT NULL,
                    partition text,
                    format integer NOT NULL,
                    record bytea NOT NULL,
                    PRIMARY KEY (slot, sequence),
                    UNIQUE (slot, id)
                )
                """,
                "CREATE TABLE \(ns)_outbox_sequences (slot text PRIMARY KEY, last bigint NOT NULL)",
            ],
        ]
    }

    /// Creates or migrates the tables up to `version`; `version` is below `currentVersion`
    /// only in tests that need an older layout. Returns the version found before.
    @discardableResult
    static func migrate(_ client: PostgresClient, namespace ns: String, to version: Int = currentVersion) async throws -> Int {
        try await client.withConnection { connection in
            try await connection.run("BEGIN", logger: PostgresCacheStore.logger)
            do {
                // One lock per namespace: concurrent openers wait here, then see the tables.
                try await connection.run(
                    "SELECT pg_advisory_xact_lock(hashtext(\(ns + "_schema")))", logger: PostgresCacheStore.logger)
                try await connection.run(
                    "CREATE TABLE IF NOT EXISTS \(unescaped: ns)_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)",
                    logger: PostgresCacheStore.logger)
                var found = 0
                for try await (value) in try await connection.query(
                    "SELECT version FROM \(unescaped: ns)_schema WHERE id = 1", logger: PostgresCacheStore.logger
                ).decode(Int.self) {
                    found = value
                }
                guard found <= currentVersion else { throw PostgresCacheStoreError.newerSchema(found: found, known: currentVersion) }
                let steps = migrations(ns)
                if found < version {
                    for step in steps[found..<version] {
                        for statement in step {
                            try await connection.run(PostgresQuery(unsafeSQL: statement), logger: PostgresCacheStore.logger)
                        }
                    }
                    try await connection.run(
                        """
                        INSERT INTO \(unescaped: ns)_schema (id, version) VALUES (1, \(version))
                        ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version
                        """, logger: PostgresCacheStore.logger)
                }
                try await connection.run("COMMIT", logger: PostgresCacheStore.logger)
                return found
            } catch {
                try? await connection.run("ROLLBACK", logger: PostgresCacheStore.logger)
                throw error
            }
        }
    }
}

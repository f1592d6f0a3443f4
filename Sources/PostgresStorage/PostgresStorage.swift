// PostgreSQL as a second storage engine (issue #16; docs/postgres.md). Not wired into the app yet.
import PostgresNIO

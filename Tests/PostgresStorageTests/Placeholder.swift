// The PostgreSQL engine's tests (issue #16; docs/postgres.md) need a server: `make test` starts one.
import PostgresStorage

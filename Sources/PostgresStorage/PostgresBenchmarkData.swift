import Foundation
import PostgresNIO
import Storage

/// Generated data for benchmarks (`tabshell generate --db postgres://…`, scripts/bench-postgres)
/// and the plan tests, made by the server itself with `generate_series` (a million records in
/// about half a minute): requests, captures of every kind (a fifth of them with a code, half
/// answering a request, a tenth with "pallet" in the note), a photo for every tenth capture and
/// three batch lines for every fifth, the count, the sequences, then ANALYZE.
public enum PostgresBenchmarkData {
    /// Fills an empty store's tables through `session`.
    public static func fill(_ session: PostgresSession, captures: Int, requests: Int) throws(StorageError) {
        let requests = max(requests, 1)
        try session.execute(
            .bound(
                """
                INSERT INTO request (id, title, kind, status, created_at)
                SELECT g, 'Request ' || g || CASE WHEN g % 3 = 0 THEN ' pallet' ELSE ' shelf' END, 'barcode',
                       CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'done' END, timestamptz '2025-01-01' + g * interval '1 hour'
                FROM generate_series(1, $1::int) g
                """, requests))
        try session.execute(.bound("SELECT setval(pg_get_serial_sequence('request', 'id'), greatest($1::int, 1), $1::int > 0)", requests))
        try session.execute(
            .bound(
                """
                INSERT INTO capture (id, kind, barcode, symbology, note, request_id, created_at, captured_by)
                SELECT g, (ARRAY['barcode','photos','product','note','batch'])[1 + g % 5],
                       CASE WHEN g % 5 IN (0, 2, 4) THEN (4006381333931 + g)::text END,
                       CASE WHEN g % 5 IN (0, 2, 4) THEN 'ean13' END,
                       'note ' || md5(g::text) || CASE WHEN g % 10 = 0 THEN ' pallet' ELSE '' END,
                       CASE WHEN g % 2 = 0 THEN 1 + g % $2::int END,
                       timestamptz '2025-01-01' + g * interval '1 minute', 'person' || (g % 7)
                FROM generate_series(1, $1::int) g
                """, captures, requests))
        try session.execute(.bound("SELECT setval(pg_get_serial_sequence('capture', 'id'), greatest($1::int, 1), $1::int > 0)", captures))
        try session.execute(
            .bound(
                """
                INSERT INTO photo_content (sha256, content, byte_size, format, pixel_width, pixel_height)
                SELECT sha256(convert_to('photo ' || g, 'UTF8')), convert_to('photo ' || g, 'UTF8'),
                       octet_length(convert_to('photo ' || g, 'UTF8')), 'png', 1, 1
                FROM generate_series(1, $1::int / 10) g
                """, captures))
        try session.execute(
            .bound(
                """
                INSERT INTO capture_photo (capture_id, position, sha256, original_name)
                SELECT g * 10 + 1, 0, sha256(convert_to('photo ' || g, 'UTF8')), 'p' || g || '.png'
                FROM generate_series(1, $1::int / 10 - 1) g
                """, captures))
        try session.execute(
            .bound(
                """
                INSERT INTO capture_line (capture_id, position, barcode, symbology, quantity)
                SELECT c, p, '4006381333931', 'ean13', 1 + p FROM generate_series(4, $1::int, 5) c, generate_series(0, 2) p
                """, captures))
        try session.execute("ANALYZE")
    }

    /// Fills the empty store `store`; refuses one that holds anything.
    public static func fill(_ store: PostgresStore, captures: Int, requests: Int) throws(StorageError) {
        try store.pool.withConnection { session throws(StorageError) in
            let held = try session.value("SELECT (SELECT count(*) FROM request) + (SELECT count(*) FROM capture)", as: Int.self) ?? 0
            guard held == 0 else {
                throw .invalidInput("\(store.displayName) is not empty; generate fills an empty store only.")
            }
            try fill(session, captures: captures, requests: requests)
        }
    }
}

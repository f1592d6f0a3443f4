extension PostgresMigrations {
    /// Search finds what was captured: every line code of a batch, and any part of a run of a
    /// script written without spaces (`市場` and `京の` in "東京の市場"), as SQLite's `v11-search`.
    ///
    /// - `tabshell_search_units(text)` is Storage's `SearchText.spaced`: the marks of those
    ///   scripts become spaces, and each of their characters a word of its own between spaces.
    ///   The two bracket expressions are SearchText's tables as they were when this shipped
    ///   (MigrationTests compares them, written out by its `SearchText.postgresMarkClass`).
    /// - A capture's `search_vector` also holds its batch's line codes in scan order, after its
    ///   other fields, in SQLite's order; the trigger function is replaced to say so.
    /// - A line added to a batch indexes its record again (once per statement, so a bulk insert
    ///   of lines updates each record once); a line removed or changed, once per row, so deleting
    ///   records (whose lines go by cascade, one statement per record) costs nothing for records
    ///   without lines.
    /// - The records whose vector changes (a batch, or text in those scripts) are indexed again.
    // sql-fragment
    static let v4 = PostgresMigration(
        identifier: "v4",
        statements: [
            """
            CREATE FUNCTION tabshell_search_units(text) RETURNS text
                LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
                AS $$ SELECT regexp_replace(regexp_replace($1,
                    '[\\u0e31\\u0e34-\\u0e3a\\u0e47-\\u0e4e\\u0eb1\\u0eb4-\\u0ebc\\u0ec8-\\u0ece\\u102b-\\u103e\\u1056-\\u1059\\u105e-\\u1060\\u1062-\\u1064\\u1067-\\u106d\\u1071-\\u1074\\u1082-\\u108d\\u108f\\u109a-\\u109d\\u17b4-\\u17d3\\u17dd\\u3099-\\u309a]',
                    ' ', 'g'),
                    '[\\u0e00-\\u0e7f\\u0e80-\\u0eff\\u1000-\\u109f\\u1100-\\u11ff\\u1780-\\u17ff\\u3040-\\u30ff\\u3100-\\u318f\\u31a0-\\u31bf\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\ua000-\\ua48f\\ua960-\\ua97f\\uac00-\\ud7ff\\uf900-\\ufaff\\uff66-\\uffdc\\U0001b000-\\U0001b16f\\U00020000-\\U0002fa1f\\U00030000-\\U000323af]',
                    ' \\& ', 'g') $$
            """,
            """
            CREATE OR REPLACE FUNCTION tabshell_capture_searchable() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.search_vector := to_tsvector('tabshell_search', tabshell_search_units(tabshell_search_words(concat_ws(' ',
                    NEW.barcode, NEW.note, (SELECT title FROM request WHERE id = NEW.request_id), NEW.captured_by,
                    NEW.product_name, NEW.product_brand,
                    (SELECT string_agg(barcode, ' ' ORDER BY position) FROM capture_line WHERE capture_id = NEW.id)))));
                RETURN NEW;
            END
            $$
            """,
            // `note = note` is what re-indexes a capture: the update fires capture_searchable.
            """
            CREATE FUNCTION tabshell_capture_lines_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE capture SET note = note WHERE id IN (SELECT DISTINCT capture_id FROM added);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER capture_lines_searchable_on_insert AFTER INSERT ON capture_line REFERENCING NEW TABLE AS added
                FOR EACH STATEMENT EXECUTE FUNCTION tabshell_capture_lines_added()
            """,
            """
            CREATE FUNCTION tabshell_capture_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    UPDATE capture SET note = note WHERE id IN (OLD.capture_id, NEW.capture_id);
                ELSE
                    UPDATE capture SET note = note WHERE id = OLD.capture_id;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER capture_line_searchable AFTER DELETE OR UPDATE OF capture_id, barcode ON capture_line
                FOR EACH ROW EXECUTE FUNCTION tabshell_capture_line_changed()
            """,
            """
            UPDATE capture SET note = note
            WHERE EXISTS (SELECT 1 FROM capture_line WHERE capture_line.capture_id = capture.id)
               OR concat_ws(' ', barcode, note, (SELECT title FROM request WHERE request.id = capture.request_id), captured_by,
                      product_name, product_brand)
                  ~ '[\\u0e00-\\u0e7f\\u0e80-\\u0eff\\u1000-\\u109f\\u1100-\\u11ff\\u1780-\\u17ff\\u3040-\\u30ff\\u3100-\\u318f\\u31a0-\\u31bf\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\ua000-\\ua48f\\ua960-\\ua97f\\uac00-\\ud7ff\\uf900-\\ufaff\\uff66-\\uffdc\\U0001b000-\\U0001b16f\\U00020000-\\U0002fa1f\\U00030000-\\U000323af]'
            """,
        ])
}

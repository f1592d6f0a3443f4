extension JSONText {
    /// A record as `history list --json` prints it (and the agents' search_records): the
    /// export's fields, with `photoCount` instead of the photos (a batch's `lines` in full).
    public static func listedRecord(_ record: ExportedRecord) -> String {
        object(recordFields(record).map { $0.0 == "photos" ? ("photoCount", String(record.photoCount)) : $0 })
    }
}

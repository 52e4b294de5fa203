/// The most bytes each of shopy's files can legitimately reach. A reader opens the file, checks
/// the size of the descriptor it opened against its limit and reads no more than the limit (and
/// one byte) of it: a larger file is damaged (exit 65, named, left as it is) instead of a read of
/// gigabytes. Every writer refuses to write past the limit its reader applies (`unstorable`,
/// nothing changed), so a file shopy writes always reads back. docs/files.md lists them.
public enum StoreFileLimits {
    /// likes.json: the largest import (`FileIO.importLimit`, 512 MiB). A like is about 500
    /// bytes (410 to 660 among the embedded catalog's items), so about a million likes.
    public static let likesSnapshot = FileIO.importLimit

    /// Past this, a journal is always folded into a new snapshot by the next write: a sixteenth
    /// of the largest snapshot (`SHOPY_LIKES_JOURNAL_LIMIT` is held to it too).
    public static let largestJournalFold = likesSnapshot / 16

    /// likes.journal: twice the largest fold limit (the journal stays under its fold limit; a
    /// torn line a crash left adds less than one more).
    public static let likesJournal = 2 * largestJournalFold

    /// state.json: the history (100 searches) and the last listing: a page of 100 rows of
    /// about 500 bytes (50 KB; 3.5 MB if every field were at `FieldLimits`), or a likes listing's
    /// ids (12 to 33 bytes each: 33 MB for a million likes) with the snapshots of rows unliked
    /// since.
    public static let state = 64 << 20

    /// preferences.json: a few flags, the config and the widgets' configurations (a few hundred
    /// bytes each): kilobytes; 4 MiB holds thousands of widgets.
    public static let preferences = 4 << 20

    /// prices.json: per like at most 100 price points (about 4.5 KB with its extremes and alert)
    /// and usually far fewer: a full history of every like of a store of over 100,000.
    public static let prices = 512 << 20

    /// catalog.json: the largest import (`FileIO.importLimit`, 512 MiB), so that `catalog export`
    /// (catalog.json's records with generation 0, never longer) always imports back. A record is
    /// about 600 bytes (585 on average for the recorded items): about 900,000 items. An import or
    /// a recorded listing that would pass it is refused, the catalog left as it was.
    public static let catalogItems = FileIO.importLimit

    /// widget-NAME.timeline.json: 4 entries of at most 4 short items, a few kilobytes.
    public static let widgetTimeline = 1 << 20
}

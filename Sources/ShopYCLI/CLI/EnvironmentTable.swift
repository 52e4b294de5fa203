import ShopYCore
/// The one table of what shopy reads from the environment and keeps in SHOPY_HOME: the man
/// page's ENVIRONMENT and FILES are rendered from it, a test checks that every `SHOPY_…`
/// variable the sources read is in it, and another that docs/environment.md and docs/files.md
/// list every row.
public enum EnvironmentTable {
    public struct Row: Sendable {
        /// The names (`NAVER_CLIENT_ID, NAVER_CLIENT_SECRET`), or a file pattern.
        public var names: [String]
        public var meaning: String

        init(_ names: String..., meaning: String) {
            self.names = names
            self.meaning = meaning
        }

        public var label: String { names.joined(separator: ", ") }
    }

    /// Every variable, option defaults (`SHOPY_SIZE`, from `ConfigKey`) included.
    public static var variables: [Row] { fixedVariables + ConfigKey.all.map(optionDefault) }

    static let fixedVariables: [Row] = [
        Row("NAVER_CLIENT_ID", "NAVER_CLIENT_SECRET", meaning: "The application's keys. With both set the naver source is the default. Never printed."),
        Row("SHOPY_API_BASE", meaning: "Base URL of the API (default https://openapi.naver.com): a compatible server or shopy-emulator. Credentials in it are sent but never shown."),
        Row("ELEVENST_API_KEY", meaning: "The 11번가 OPEN API key (an 11번가 seller account's); with it the 11st source is used by default. Never printed."),
        Row("COUPANG_ACCESS_KEY", "COUPANG_SECRET_KEY", meaning: "An approved Coupang Partners member's keys; with both the coupang source is used by default. The secret signs each request and is never sent. Never printed."),
        Row("SHOPY_11ST_BASE", meaning: "Address of 11번가's Open API (default https://openapi.11st.co.kr; scheme, host and port, shopy appends /openapi/OpenApiService.tmall): a proxy or shopy-emulator."),
        Row("SHOPY_COUPANG_BASE", meaning: "Address of Coupang's gateway (default https://api-gateway.coupang.com; shopy appends /v2/providers/affiliate_open_api/apis/openapi/v1/…): a proxy or shopy-emulator."),
        Row("SHOPY_LIBCRYPTO", meaning: "The libcrypto file to open for Coupang's HMAC-SHA256 signatures instead of libcrypto.so.3 (then libcrypto.so.1.1) (Linux)."),
        Row("NAVER_API_HUB_KEY_ID", "NAVER_API_HUB_KEY", meaning: "NAVER API HUB keys for shopy trends (DataLab Shopping Insight); preferred over NAVER_CLIENT_ID and NAVER_CLIENT_SECRET when both pairs are set. Never printed."),
        Row("SHOPY_DATALAB_BASE", meaning: "Base URL of DataLab Shopping Insight for shopy trends (default by key scheme: https://naverapihub.apigw.ntruss.com/shopping/v1 or https://openapi.naver.com/v1/datalab/shopping); e.g. http://127.0.0.1:8080/shopping/v1 for shopy-emulator."),
        Row("SHOPY_HOME", meaning: "Where shopy keeps its files."),
        Row("XDG_DATA_HOME", meaning: "Used when SHOPY_HOME is not set."),
        Row("SHOPY_LIKES_JOURNAL_LIMIT", meaning: "Bytes of likes.journal past which a write folds it into a new likes.json: the larger of this value and a sixteenth of likes.json (default 262144; held to at most 33554432; a value that is not a whole number from 1 is ignored); for tests and tuning."),
        Row("SHOPY_LIBCURL", meaning: "The libcurl file to open instead of libcurl.so.4 (Linux)."),
        Row("SHOPY_LIBCHAFA", "SHOPY_LIBTURBOJPEG", "SHOPY_LIBPNG", "SHOPY_LIBWEBP", "SHOPY_LIBGIF",
            meaning: "The files to open instead of libchafa.so.0, libturbojpeg.so.0, libpng16.so.16, libwebp.so.7 and libgif.so.7 for pictures (show, browse)."),
        Row("XDG_CACHE_HOME", meaning: "Pictures are cached in its shopy/images (else in ~/.cache/shopy/images): 100 MiB at most, the least recently drawn going first."),
        Row("SHOPY_WIDGET_BACKGROUND", meaning: "off: shopy widget never starts a background refresh (run shopy widget refresh from a timer instead)."),
        Row("SHOPY_WIDGET_LOCK_FD", meaning: "Set by shopy itself for the background widget refresh it starts (the descriptor of the lock it hands over); not for users."),
        Row("NO_COLOR", meaning: "Set (to anything): no colour, unless --color always."),
        Row("CLICOLOR_FORCE", meaning: "Set and not 0: colour even when not on a terminal (NO_COLOR wins); CLICOLOR=0: no colour."),
        Row("COLUMNS", meaning: "Width for tables and help (else the terminal's, else 80; at least 20)."),
        Row("BROWSER", meaning: "Programs for shopy open, colon-separated; %s stands for the link."),
        Row("DISPLAY", "WAYLAND_DISPLAY", "WSL_DISTRO_NAME", meaning: "Which opener and clipboard tools shopy open and shopy copy try."),
        Row("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY", meaning: "Proxies (the lowercase names too, and they win)."),
        Row("SSL_CERT_FILE", "SSL_CERT_DIR", meaning: "The trusted CA certificates instead of the system's: a PEM file, or a hashed directory (as OpenSSL and the curl tool read them); e.g. a proxy's CA."),
    ]

    static func optionDefault(_ key: ConfigKey) -> Row {
        let isOption = CommandTree.all(ShopY.commands.map { $0.fullSpec }).contains { $0.spec.option(named: key.option) != nil }
        guard isOption else {
            return Row(key.variable, meaning: "The setting \(key.name) (\(key.accepts)); beats shopy config. A value that is not accepted stops the commands that use it (64); shopy config list and shopy doctor show it.")
        }
        return Row(key.variable, meaning: "The default of --\(key.option) (\(key.accepts)); beats shopy config, is beaten by the option on the command line. A value that is not accepted stops the commands that use it (64) unless the option is given; shopy config list and shopy doctor show it.")
    }

    /// The files in SHOPY_HOME.
    public static let files: [Row] = [
        Row("likes.json", meaning: "The likes' snapshot."),
        Row("likes.journal", meaning: "The likes and unlikes since the snapshot, one transaction a line."),
        Row("likes.index", meaning: "The snapshot's ids, sorted, with each like's place in likes.json (derived; rebuilt when it does not match)."),
        Row("state.json", meaning: "The search history and the rows of the last listing."),
        Row("preferences.json", meaning: "History recording, the default popular sections and the config (shopy config)."),
        Row("prices.json", meaning: "Per like: the last price points, the lowest and highest, and its alert (likes refresh, likes alert)."),
        Row(".likes.lock", ".state.lock", ".preferences.lock", ".prices.lock", meaning: "Lock files (flock), never replaced."),
        Row("catalog.json", "catalog.index", "catalog.lock", meaning: "The local catalog's records, their index (derived) and its lock (shopy catalog)."),
        Row("coupang.json", ".coupang.lock", meaning: "Coupang's request budget per key (a keyed hash of the key, never the key), a hold after a 429, and answers cached for at most 60 minutes; and its lock."),
        Row("widget-NAME.timeline.json", meaning: "The widget's timeline (a cache: a damaged one is rebuilt)."),
        Row("widget-NAME.attempt.json", meaning: "The last widget refresh started and, when it failed, why (holds the next one back for a minute)."),
        Row("widget.log", "widget.log.1", meaning: "What background widget refreshes did and why they failed."),
        Row(".widget-refresh.lock", meaning: "Held by the one running widget refresh."),
        Row("likes-backup-TIME.json", meaning: "Written by shopy likes clear."),
        Row("catalog-backup-TIME.json", meaning: "Written by shopy catalog clear."),
        Row("NAME.damaged-TIME.json", meaning: "A damaged file moved aside by shopy doctor --repair."),
        Row("likes.journal.torn-TIME.jsonl", meaning: "The bytes of a torn last journal line, saved before it is trimmed."),
    ]
}

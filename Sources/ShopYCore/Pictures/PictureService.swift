import ShopYBase
/// A product's picture, decoded: from the cache when it is there (no network), else fetched,
/// decoded, and kept in the cache once it decoded. The one path `shopy show` and browse take.
/// A cancelled task ends at once with `.cancelled`: its fetch aborted, its decode not started
/// (or, when already running, not waited for).
public struct PictureService: Sendable {
    public let fetcher: PictureFetcher
    public let cache: PictureCache?
    public let environment: [String: String]
    public let trace: Tracer

    public init(transport: any HTTPTransport, cache: PictureCache?, environment: [String: String], trace: Tracer = .off) {
        self.fetcher = PictureFetcher(transport: transport, trace: trace)
        self.cache = cache
        self.environment = environment
        self.trace = trace
    }

    /// `link`'s picture, within `deadline`; `want`: the most pixels it will be drawn at (a JPEG
    /// decodes smaller when it can).
    public func picture(_ link: String?, deadline: ContinuousClock.Instant,
                        want: (width: Int, height: Int)? = nil) async -> Result<DecodedPicture, PictureFailure> {
        guard let link = link?.trimmingASCIIWhitespace(), !link.isEmpty else { return .failure(.noImage("the product has no image URL")) }
        guard PictureFetcher.imageURL(link) != nil else { return .failure(.noImage("the image URL is not an http or https address")) }
        if let cache, let (bytes, format) = cache.read(link) {
            switch await decode(bytes, declared: format, source: link, want: want) {
            case .failure(.cancelled):
                return .failure(.cancelled)
            case .success(let picture):
                trace("picture: from the cache (\(bytes.count) bytes, \(format.name))")
                return .success(picture)
            case .failure(let failure):
                if case .missingLibrary = failure { return .failure(failure) }
                trace("picture: the cached copy does not decode (\(failure.reason)); fetching it again")
            }
        }
        if Task.isCancelled { return .failure(.cancelled) }
        trace("picture: GET \(URLRedaction.redact(link))")
        let fetched: (bytes: [UInt8], declared: PictureFormat)
        switch await fetcher.fetch(link, deadline: deadline) {
        case .success(let answer): fetched = answer
        case .failure(let failure): return .failure(failure)
        }
        let decoded = await decode(fetched.bytes, declared: fetched.declared, source: link, want: want)
        if case .success = decoded, let cache {
            do {
                try cache.write(link, bytes: fetched.bytes, format: fetched.declared)
            } catch {
                trace("picture: not cached: \(error.message)")
            }
        }
        return decoded
    }

    /// Decoded on the decode lane (`PictureDecodeLane`): one decode at a time, off the cooperative
    /// pool; `.cancelled` at once when the task is cancelled, the decode not started if it was
    /// still queued, else left to finish unwatched.
    private func decode(_ bytes: [UInt8], declared: PictureFormat, source: String,
                        want: (width: Int, height: Int)?) async -> Result<DecodedPicture, PictureFailure> {
        let environment = self.environment
        let result = await PictureDecodeLane.shared.run {
            PictureDecoder.decode(bytes, declared: declared, source: source, want: want, environment: environment)
        }
        return result ?? .failure(.cancelled)
    }
}

import ShopYCore

/// A way a picture's answer can go wrong (`--image-fault`, or `/images/fault/<kind>`), each one
/// of the bad inputs a client must survive: shown the link instead, never crash, never hang.
public enum PictureFault: String, CaseIterable, Sendable {
    /// 200 announcing the whole PNG's length, about half of it sent, then the connection closed.
    case truncated
    /// A whole PNG answer whose compressed pixels are garbage.
    case corrupt
    /// Content-Type image/png, and a body of HTML with terminal escape sequences in it.
    case lyingType = "lying-type"
    /// Content-Type image/jpeg, and a PNG body.
    case mislabeled
    /// A valid PNG of 1 × 100,000 pixels (a decompression bomb's shape).
    case huge
    /// A body that never ends (no length, sent as fast as the client reads; the server stops at 64 MiB).
    case endless
    /// The headers and a few bytes, then one byte every 500 ms.
    case slow
    /// 302 to file:///etc/passwd.
    case redirectFile = "redirect-file"
    /// 302 to plain http on another host.
    case redirectHTTP = "redirect-http"
    /// 302 to itself, forever.
    case redirectLoop = "redirect-loop"
    /// One 302 to the real picture on the same host (followed: not a fault, a check that it works).
    case redirectSame = "redirect-same"
}

/// Small generated pictures for the catalog's items (`/images/<productId>.png`: a gradient and a
/// disc in colours taken from the id), so that tests and a newcomer see pictures offline; the
/// faults of `PictureFault` at `/images/fault/<kind>`. PNGs are written here with stored
/// (uncompressed) deflate blocks: no library is needed to make them.
enum EmulatorPictures {
    static let prefix = "/images/"

    /// The URL an item's `image` gets in the emulator's answers: on the host the client asked.
    static func url(for productId: String, host: String) -> String {
        "http://\(host)\(prefix)\(productId).png"
    }

    /// The Host header when it is a plain host[:port], else the bound address.
    static func host(of request: ParsedRequest, fallback: String) -> String {
        guard let host = request.header("Host"), !host.isEmpty, host.utf8.count <= 255,
              host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2E || $0 == 0x2D || $0 == 0x3A || $0 == 0x5B || $0 == 0x5D })
        else { return fallback }
        return host
    }

    /// The answer to a GET of `path` under /images/, or nil for another path.
    static func reply(path: String, fault configured: PictureFault?, host: String) -> Reply? {
        guard path.hasPrefix(prefix) else { return nil }
        var name = String(path.dropFirst(prefix.count))
        // `plain/<id>.png`: the picture itself, whatever fault is configured (where redirect-same leads).
        var fault = configured
        if name.hasPrefix("plain/") {
            name.removeFirst(6)
            fault = nil
        }
        if name.hasPrefix("fault/") {
            guard let fault = PictureFault(rawValue: String(name.dropFirst(6))) else { return notFound() }
            return faultReply(fault, id: "fault", host: host)
        }
        guard name.hasSuffix(".png"), name.count > 4, name.count <= 64 + 4,
              name.dropLast(4).utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x3A })
        else { return notFound() }
        let id = String(name.dropLast(4))
        if let fault { return faultReply(fault, id: id, host: host) }
        return picture(png(for: id))
    }

    static func picture(_ bytes: [UInt8], type: String = "image/png") -> Reply {
        var response = ServerResponse(status: 200, body: bytes)
        response.contentType = type
        response.headers.append(("Cache-Control", "max-age=86400"))
        return Reply(response: response)
    }

    static func notFound() -> Reply {
        var response = ServerResponse(status: 404, body: Array("no such picture\n".utf8))
        response.contentType = "text/plain; charset=utf-8"
        return Reply(response: response)
    }

    static func redirect(to location: String) -> Reply {
        var response = ServerResponse(status: 302, body: [])
        response.contentType = "text/plain; charset=utf-8"
        response.headers.append(("Location", location))
        return Reply(response: response)
    }

    static func faultReply(_ fault: PictureFault, id: String, host: String) -> Reply {
        switch fault {
        case .truncated:
            var reply = picture(png(for: id, width: 160, height: 120))
            reply.delivery = .truncated
            return reply
        case .corrupt:
            return picture(corruptPNG())
        case .lyingType:
            return picture(Array("<html><title>\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mnot a picture</title></html>\n".utf8))
        case .mislabeled:
            return picture(png(for: id), type: "image/jpeg")
        case .huge:
            return picture(png(width: 1, height: 100_000) { _, y in (UInt8(y & 0xFF), 0, 0) })
        case .endless:
            var reply = picture(png(for: id))
            reply.delivery = .endless
            return reply
        case .slow:
            var reply = picture(png(for: id))
            reply.delivery = .slow
            return reply
        case .redirectFile:
            return redirect(to: "file:///etc/passwd")
        case .redirectHTTP:
            return redirect(to: "http://pictures.example.invalid/\(id).png")
        case .redirectLoop:
            return redirect(to: "http://\(host)\(prefix)fault/redirect-loop")
        case .redirectSame:
            return redirect(to: "/images/plain/\(id == "fault" ? "redirected" : id).png")
        }
    }

    // MARK: - Pictures

    /// An item's picture: a diagonal gradient between two colours and a disc of a third, all
    /// taken from the id's hash, so each item looks its own and the same every time.
    static func png(for id: String, width: Int = 96, height: Int = 72) -> [UInt8] {
        var hash: UInt64 = 0xCBF29CE484222325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001B3 }
        func channel(_ shift: UInt64) -> Int { Int((hash >> shift) & 0xFF) }
        let a = (channel(0), channel(8), channel(16)), b = (channel(24), channel(32), channel(40))
        let disc = (255 - channel(48) / 2, 255 - channel(56) / 2, 200)
        let cx = width / 2, cy = height / 2, r = min(width, height) / 3
        return png(width: width, height: height) { x, y in
            let dx = x - cx, dy = y - cy
            if dx * dx + dy * dy <= r * r { return (UInt8(disc.0), UInt8(disc.1), UInt8(disc.2)) }
            let t = (x + y) * 255 / max(1, width + height - 2)
            func mix(_ p: Int, _ q: Int) -> UInt8 { UInt8((p * (255 - t) + q * t) / 255) }
            return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
        }
    }

    /// A PNG of 8-bit RGB pixels from `pixel(x, y)`.
    static func png(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                raw += [r, g, b]
            }
        }
        return pngFile(width: width, height: height, idat: zlibStored(raw))
    }

    /// A PNG whose IDAT is not a zlib stream at all (its chunk's CRC is right: the damage is in the data).
    static func corruptPNG() -> [UInt8] {
        var state: UInt32 = 0x2545F491
        let garbage = (0..<2048).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
        return pngFile(width: 96, height: 72, idat: [0x78, 0x01] + garbage)
    }

    static func pngFile(width: Int, height: Int, idat: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        out += chunk("IDAT", idat)
        out += chunk("IEND", [])
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    /// A zlib stream of stored deflate blocks (at most 65,535 bytes each).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(Int(b << 16 | a))
    }

    static func be32(_ n: Int) -> [UInt8] { [UInt8((n >> 24) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] }

    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFFFFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFFFFFF
    }
}

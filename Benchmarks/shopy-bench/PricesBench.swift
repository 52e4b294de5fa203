// prices.json at scale (issue 14): 10,000 likes with 50 price points each, written and read back
// through the settings store (what `shopy likes refresh` and the widget do).
import Foundation
import ShopYCore
import ShopYBase

func pricesBench(runs: Int) {
    let likes = 10_000, points = 50
    print("## prices.json: \(Money.grouped(likes)) likes × \(points) points, through the settings store (\(runs) runs, median)")
    var book = PriceBook()
    for like in 0..<likes {
        var record = PriceRecord()
        for point in 0..<points {
            let day = 1 + point % 28, hour = point % 24
            let at = String(format: "2026-%02d-%02dT%02d:00:00Z", 1 + point / 28, day, hour)
            record.record(PricePoint(at: at, price: point % 17 == 0 ? nil : 10_000 + (like * 7 + point * 13) % 5_000))
        }
        if like % 3 == 0 { record.alert = PriceAlert(rule: like % 2 == 0 ? .below(11_000) : .drop(percent: 10)) }
        book[String(10_000_000_000 + like * 7919)] = record
    }
    let directory = temporaryDirectory("prices")
    let store = SettingsStore(directory: directory)
    var writes: [Double] = [], reads: [Double] = []
    for _ in 0..<runs {
        var start = DispatchTime.now().uptimeNanoseconds
        try! store.update([.prices]) { $0.prices = book }
        writes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        start = DispatchTime.now().uptimeNanoseconds
        let read = try! SettingsStore(directory: directory).read { $0.prices }
        reads.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        precondition(read == book, "prices.json did not read back as written")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: store.path(of: .prices))[.size] as? Int) ?? 0
    print(String(format: "write (encode + atomic replace)  %@    read (parse + decode)  %@    [prices.json %.1f MB]",
                 ms(median(writes)), ms(median(reads)), Double(size) / 1e6))
    print()
}

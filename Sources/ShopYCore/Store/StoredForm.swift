import Foundation

/// The one check every stored value passes before a transaction sets it (see `storedForm`).
extension Session {
    /// The bytes `value` is stored as, checked by the reader's own rules before anything is
    /// written: they must decode (with the codec or Codable, as `value(_:in:default:codec:)`
    /// reads them) to a value that encodes to the same bytes. A value the reader would refuse
    /// or read differently (a date whose year is not four digits, say) is refused here, so a
    /// file shopy writes is always one it reads back as written.
    static func storedForm<Value: Codable>(_ value: Value, codec: RawCodec<Value>?) throws(StoredValueError) -> [UInt8] {
        if let codec {
            let bytes = codec.encode(value)
            let again: Value
            do {
                again = try codec.decode(bytes[...])
            } catch {
                throw StoredValueError("would not read back: \(error.problem)")
            }
            guard codec.encode(again) == bytes else { throw StoredValueError("would not read back as written") }
            return bytes
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { throw StoredValueError("could not be encoded") }
        let again: Value
        do {
            again = try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw StoredValueError("would not read back: it \(describe(error))")
        }
        guard (try? encoder.encode(again)) == data else { throw StoredValueError("would not read back as written") }
        return Array(data)
    }
}

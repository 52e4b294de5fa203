import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// `Settings.declarations` is what a transaction checks when it loads a file (a file is whole or
/// damaged): it must be every `@Stored` setting, as reflection finds them, each once.
final class SettingsDeclarationTests: StoreDirectoryTestCase {
    private func name(_ declaration: any StoredDeclaration) -> String { declaration.suite.name + "/" + declaration.key }

    func testTheListIsEveryStoredSettingOnce() throws {
        let (listed, reflected) = try SettingsStore(directory: directory).read { settings in
            (settings.declarations.map(name),
             Mirror(reflecting: settings).children.compactMap { ($0.value as? any StoredDeclaration).map(name) })
        }
        XCTAssertEqual(reflected.count, 8, "reflection finds the @Stored settings")
        XCTAssertEqual(listed.sorted(), reflected.sorted(), "add the new @Stored setting to Settings.declarations")
        XCTAssertEqual(Set(listed).count, listed.count)
    }

    func testEveryRawStorableSettingTakesItsOwnCodec() throws {
        // The codec is chosen where a declaration is compiled (the init for RawStorable values),
        // not looked up at run time: each RawStorable setting must have it, and no other.
        let raw = try SettingsStore(directory: directory).read { settings in
            settings.declarations.filter(\.usesRawCodec).map(name)
        }
        XCTAssertEqual(raw.sorted(), ["likes/likes", "prices/prices", "state/history", "state/lastListing"])
    }

    func testADamagedValueBesideTheOneReadStillStopsTheRead() throws {
        // preferences.json whose "widgets" does not decode: reading "config" from it is refused.
        try Data(#"{"schema":1,"config":{},"widgets":7}"#.utf8).write(to: URL(fileURLWithPath: directory + "/preferences.json"))
        let store = SettingsStore(directory: directory)
        XCTAssertThrowsError(try store.read { settings in settings.config }) { error in
            guard case StoreError.damaged(let path, let problem)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("preferences.json"), path)
            XCTAssertTrue(problem.contains("widgets"), problem)
        }
    }
}

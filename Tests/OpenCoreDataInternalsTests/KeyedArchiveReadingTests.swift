@testable import OpenCoreData
import OpenCoreDataTestSupport
import XCTest

/// Reading keyed archives of classes Linux doesn't have (Xcode 3 models, mapping models): a
/// damaged archive reads as nil, never a trap. Uses `@testable` for the internal reader.
final class KeyedArchiveReadingTests: XCTestCase {
    /// An archive whose array lists itself: object 1 is `{NS.objects: [UID 1]}`.
    private func selfContainingArchive() throws -> KeyedArchiveObjects {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
        <key>$objects</key><array>
          <string>$null</string>
          <dict><key>NS.objects</key><array><dict><key>CF$UID</key><integer>1</integer></dict></array></dict>
        </array>
        </dict></plist>
        """
        return try XCTUnwrap(KeyedArchiveObjects(Data(xml.utf8)))
    }

    func testAnArchiveThatContainsItselfReadsAsBoundedNesting() throws {
        let archive = try selfContainingArchive()
        let root = try XCTUnwrap(archive.top["root"])
        XCTAssertEqual(archive.uid(root), 1, "the reference is an archive UID, so reading it recurses")
        // Without a depth limit this recursion would overflow the stack.
        var value = archive.plainValue(root)
        var depth = 0
        while let array = value as? [Any], let first = array.first { value = first; depth += 1 }
        XCTAssertEqual(depth, 64, "nesting stops at the depth limit")
        XCTAssertTrue(value is NSNull, "the level past the limit reads as nil")
    }

    /// 60 arrays, each holding the next twice: 61 objects that would expand to 2^60 values.
    /// The reader stops at its budget instead of running out of time and memory.
    func testAnArchiveWhoseCollectionsShareMembersStopsAtTheBudget() throws {
        let levels = 60
        var objects = "<string>$null</string>"
        for level in 1...levels {
            let next = "<dict><key>CF$UID</key><integer>\(level + 1)</integer></dict>"
            objects += "<dict><key>NS.objects</key><array>\(next)\(next)</array></dict>"
        }
        objects += "<string>leaf</string>"
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
        <key>$objects</key><array>\(objects)</array>
        </dict></plist>
        """
        let archive = try XCTUnwrap(KeyedArchiveObjects(Data(xml.utf8)))
        let started = Date()
        let value = archive.plainValue(archive.top["root"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "bounded work")
        func count(_ value: Any?) -> Int { (value as? [Any]).map { 1 + $0.reduce(0) { $0 + count($1) } } ?? 1 }
        XCTAssertLessThanOrEqual(count(value), KeyedArchiveObjects.plainValueBudget * 2 + 1)
    }
}

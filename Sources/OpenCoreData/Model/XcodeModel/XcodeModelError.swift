import Foundation

/// The errors the Xcode model loader throws: `NSCocoaErrorDomain`, Foundation's file-reading
/// codes, the path in `NSFilePathErrorKey`, and a message that says what to do.
///
/// - `NSFileReadNoSuchFileError` (260): nothing at the path, or a bundle without a version.
/// - `NSFileReadCorruptFileError` (259): something is there but it is not a model we can read
///   (not XML, not a `<model>`, a compiled `.mom`, a folder without `contents`).
/// - `NSFileReadUnknownError` (256): the file exists but could not be read (permissions, I/O).
/// - `NSFileWriteUnknownError` (512): a compiled model could not be written (`ocd compile`).
///
/// These are the codes Foundation uses for unreadable documents; Apple's
/// `NSManagedObjectModel(contentsOf:)` only returns nil, so there is no Core Data code to match.
enum XcodeModelError {
    static func noSuchFile(_ url: URL, _ message: String) -> NSError {
        make(CocoaError.Code.fileReadNoSuchFile.rawValue, url, message)
    }

    static func corrupt(_ url: URL, _ message: String, underlying: Error? = nil) -> NSError {
        make(CocoaError.Code.fileReadCorruptFile.rawValue, url, message, underlying: underlying)
    }

    static func unwritable(_ url: URL, _ message: String, underlying: Error? = nil) -> NSError {
        make(CocoaError.Code.fileWriteUnknown.rawValue, url, message, underlying: underlying)
    }

    static func unreadable(_ url: URL, _ message: String, underlying: Error? = nil) -> NSError {
        make(CocoaError.Code.fileReadUnknown.rawValue, url, message, underlying: underlying)
    }

    private static func make(_ code: Int, _ url: URL, _ message: String, underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, NSFilePathErrorKey: url.path]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }
}

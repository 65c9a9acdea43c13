import CZlib
import Foundation

/// The model Apple's framework caches in a store's `Z_MODELCACHE` table (framework version
/// 1044 and later): one BLOB, raw DEFLATE (no zlib header) of an `NSKeyedArchiver` binary
/// property list of the `NSManagedObjectModel`.
///
/// ```swift
/// let blob = try db.query("SELECT Z_CONTENT FROM Z_MODELCACHE") { $0.blob(at: 0) }.first!!
/// let model = try SQLiteModelCache.model(from: blob)   // the model Apple's framework cached
/// ```
///
/// The archive is the same as a compiled `.mom` file's, and ``ArchivedModelDecoder`` reads both:
/// the whole model, fetched properties, constraints, indexes and derivations included.
enum SQLiteModelCache {
    /// The most a model cache may inflate to. Apple's are tens to hundreds of kilobytes; a
    /// hostile store's could inflate a few megabytes into gigabytes (a decompression bomb).
    static let maximumInflatedSize = 16 << 20

    /// Inflates raw DEFLATE `data` (zlib window bits -15), refusing to produce more than
    /// `limit` bytes.
    static func inflate(_ data: Data, limit: Int = maximumInflatedSize) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw SQLiteModelCacheError("zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var input = data
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        let status: Int32 = input.withUnsafeMutableBytes { (source: UnsafeMutableRawBufferPointer) -> Int32 in
            stream.next_in = source.bindMemory(to: Bytef.self).baseAddress
            stream.avail_in = uInt(source.count)
            var rc: Int32 = Z_OK
            repeat {
                rc = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    let rc = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(out.baseAddress!, count: chunk - Int(stream.avail_out))
                    return rc
                }
                if output.count > limit { return Z_BUF_ERROR }
            } while rc == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return rc
        }
        guard output.count <= limit else {
            throw SQLiteModelCacheError("the model cache inflates to more than \(limit) bytes (Apple's are kilobytes); it is damaged or hostile and was not read")
        }
        guard status == Z_STREAM_END else {
            throw SQLiteModelCacheError("the model cache is not raw DEFLATE data (zlib status \(status))")
        }
        return output
    }

    /// The model archived in a `Z_MODELCACHE` blob.
    static func model(from blob: Data) throws -> NSManagedObjectModel {
        try model(fromArchive: try inflate(blob))
    }

    /// The model in an inflated model cache: an `NSKeyedArchiver` binary property list of an
    /// `NSManagedObjectModel`, the format of a compiled `.mom` file too, read by the same
    /// ``ArchivedModelDecoder``. What it reads but can't use is in the model's `loadingWarnings`.
    static func model(fromArchive archive: Data) throws -> NSManagedObjectModel {
        do {
            var decoder = try ArchivedModelDecoder(archive, moduleName: nil)
            let model = try decoder.makeModel()
            model.loadingWarnings = decoder.warnings
            return model
        } catch let failure as ArchivedModelDecoder.Failure {
            throw SQLiteModelCacheError("the model cache is damaged: \(failure)")
        }
    }
}

struct SQLiteModelCacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

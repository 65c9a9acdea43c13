import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents so that a crash at any moment leaves either the old file or the
/// new one, never a mix: the data goes to a temporary file in the same directory (same file
/// system, so the rename below is atomic), is flushed to disk (`fsync`), and is renamed over the
/// old file; then the directory is flushed, so the rename itself survives a power loss.
///
/// ```swift
/// try AtomicFileWriter.write(data, to: storeURL)
/// ```
enum AtomicFileWriter {
    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure("create \(temporary.path)", url) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("write \(temporary.path)", url)
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw failure("flush \(temporary.path) to disk", url) }
            closed = true
            guard close(descriptor) == 0 else { throw failure("close \(temporary.path)", url) }
            guard rename(temporary.path, url.path) == 0 else { throw failure("rename \(temporary.path) to \(url.path)", url) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        // Flush the directory entry; a file system that can't is no reason to fail the save.
        let directoryDescriptor = open(directory.path, O_RDONLY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.write(fd, pointer, count)
        #elseif canImport(Musl)
        return Musl.write(fd, pointer, count)
        #else
        return Glibc.write(fd, pointer, count)
        #endif
    }

    private static func failure(_ what: String, _ url: URL) -> NSError {
        let reason = String(cString: strerror(errno))
        return CoreDataError.make(NSPersistentStoreSaveError, "Could not save the store at \(url.path): failed to \(what) (\(reason)). The store file is unchanged; check that its directory exists and is writable, and that the disk has room.", [NSFilePathErrorKey: url.path])
    }
}

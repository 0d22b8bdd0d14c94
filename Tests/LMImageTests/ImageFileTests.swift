import Foundation
import Testing
import LMImage
#if canImport(Glibc)
import Glibc
#endif

/// Image files are read within a bound: only regular files, at most 256 MiB, each refusal named.
@Suite struct ImageFileTests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-imagefile-\(UUID().uuidString)-\(name)")
    }

    static func readError(_ url: URL) -> ImageFileError? {
        do { _ = try ImageFile.read(url); return nil } catch { return error }
    }

    @Test func aPNGFileIsReadWholeAndDecodes() throws {
        let bytes = TestImages.png(TestImages.ihdr(width: 4, height: 2), [TestImages.chunk("IDAT", TestImages.zlibStored(HostilePNGTests.raw))])
        let url = Self.temporary("grey.png")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ImageFile.read(url) == Data(bytes))
        let image = try DecodedImage(contentsOf: url)
        #expect(image.width == 4 && image.height == 2)
    }

    /// /dev/zero was read until memory ran out, a FIFO without a writer blocked the open.
    @Test func devicesFIFOsAndDirectoriesAreRefusedWithoutReading() throws {
        #expect(Self.readError(URL(fileURLWithPath: "/dev/zero")) == .notRegularFile)
        #expect(Self.readError(FileManager.default.temporaryDirectory) == .directory)
        let fifo = Self.temporary("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        #expect(Self.readError(fifo) == .notRegularFile)
        #expect(throws: ImageFileError.notRegularFile) { try DecodedImage(contentsOf: URL(fileURLWithPath: "/dev/zero")) }
    }

    @Test func otherSchemesMissingFilesAndLoopsAreNamed() throws {
        #expect(Self.readError(try #require(URL(string: "https://example.invalid/a.png"))) == .notAFileURL)
        #expect(Self.readError(URL(fileURLWithPath: "/nonexistent/lmsession/a.png")) == .unreadable(String(cString: strerror(ENOENT))))
        let a = Self.temporary("a"), b = Self.temporary("b")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: b.path)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: a.path)
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        #expect(Self.readError(a) == .unreadable(String(cString: strerror(ELOOP))))
    }

    /// A sparse file one byte over the bound: nothing on disk, refused by its size before any read.
    @Test func aFileOverTheBoundIsRefused() throws {
        let url = Self.temporary("huge.png")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(ImageFile.maxBytes) + 1)
        try handle.close()
        #expect(ImageFile.maxBytes == 256 << 20)
        #expect(Self.readError(url) == .tooLarge(limit: 256 << 20))
    }
}

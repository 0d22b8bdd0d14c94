import Foundation
import LMImage
import LMTransformer
import LMVision

/// `lmsession bench --mmproj MMPROJ.gguf --image FILE [--threads N] [--repetitions 3] [--json]`: the time to turn
/// one image into its embeddings with the `mmproj` file's encoder, as a session does before prefill: decoding the
/// file is left out; preprocessing (resize, slicing, normalisation) and every tile's ViT and projector are in.
/// Reports the median over `--repetitions` runs after one warm-up run, and per tile. `Scripts/bench-vision` runs it
/// beside llama.cpp's `clip_image_encode` on the same files.
enum VisionBench {
    static func run(_ a: CommandLineArguments) throws(CLIError) {
        guard let mmproj = a.string("mmproj") else { throw .usage("bench --image needs --mmproj MMPROJ.gguf") }
        guard let path = a.string("image"), !path.isEmpty else { throw .usage("--image needs a file path") }
        let reps = try a.int("repetitions") ?? 3
        guard reps > 0 else { throw .usage("--repetitions must be positive") }
        let threads = try a.threads() ?? InferenceContext.defaultThreadCount
        guard FileManager.default.fileExists(atPath: mmproj) else { throw .failed("mmproj file not found at \(mmproj)") }
        let image: DecodedImage
        do { image = try DecodedImage(contentsOf: URL(fileURLWithPath: path)) } catch let error as ImageFileError {
            throw .failed("cannot read \(path): \(error)")
        } catch {
            throw .failed("\(path): \(error)")
        }
        let loadStart = DispatchTime.now().uptimeNanoseconds
        let encoder: VisionEncoder
        do { encoder = try VisionEncoder(path: mmproj, threads: threads) } catch { throw .failed("\(error)") }
        let loadMs = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e6
        let layout: TileLayout
        do { layout = try ImagePreprocessor(encoder.hyperparameters).layout(width: image.width, height: image.height) } catch {
            throw .failed("\(error)")
        }
        var times: [Double] = []
        var checksum: Float = 0
        do {
            for rep in 0...reps {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let rows = try encoder.embeddings(for: image)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
                if rep > 0 { times.append(ms) }  // the first run warms caches and pages in the weights
                checksum += rows.reduce(0, +)
            }
        } catch {
            throw .failed("\(error)")
        }
        let median = times.sorted()[times.count / 2]
        let tiles = layout.tileCount
        if a.has("json") {
            print("{\"encode_ms\":\(BenchCommand.fmt(median)),\"tiles\":\(tiles),\"tokens\":\(layout.tokenCount),\"threads\":\(threads),"
                + "\"load_ms\":\(BenchCommand.fmt(loadMs)),\"runs_ms\":[\(times.map { BenchCommand.fmt($0) }.joined(separator: ","))],"
                + "\"checksum\":\(checksum.isFinite ? BenchCommand.fmt(Double(checksum)) : "null")}")
        } else {
            print("image \(image.width)x\(image.height): \(tiles) tiles of \(encoder.hyperparameters.imageSize) px, \(layout.tokenCount) embeddings")
            print("encode: \(BenchCommand.fmt(median)) ms (median of \(reps)), \(BenchCommand.fmt(median / Double(tiles))) ms a tile, \(threads) threads; load \(BenchCommand.fmt(loadMs)) ms")
        }
    }
}

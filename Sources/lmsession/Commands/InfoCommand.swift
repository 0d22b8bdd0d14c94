import LMGGUF
import LMKernels
import LMTransformer

/// `lmsession info`: architecture, sizes, tensor type counts and special tokens of a model. The
/// tokenizer part needs only the GGUF metadata; the hyperparameters are shown when LMSession can
/// load the model's weights, else the reason it cannot (e.g. a vocabulary-only file).
/// `lmsession info --kernels`: only the kernel set this CPU runs (`portable`, `avx2`).
enum InfoCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model"], switches: ["kernels"])
        guard a.positional.isEmpty else { throw .usage("info takes no positional arguments") }
        if a.has("kernels") {
            print(KernelSet.active)
            return
        }
        let (path, file, t) = try ModelLocator.loadTokenizer(a.string("model"))
        var typeCounts: [String: Int] = [:]
        var parameters = 0
        for info in file.tensors {
            typeCounts[info.type.description, default: 0] += 1
            parameters += info.elementCount
        }
        func special(_ id: Int?) -> String { id.map { "\($0) \(t.tokenText($0).debugDescription)" } ?? "none" }
        let name = file["general.name"]?.string ?? String(path.split(separator: "/").last ?? Substring(path))
        print("""
            file:          \(path)
            name:          \(name)
            GGUF version:  \(file.version), \(file.tensors.count) tensors, \(file.keys.count) metadata keys, \(file.bytes.count) bytes
            architecture:  \(file.architecture ?? "none")
            """)
        do {
            let c = try TransformerModel(path: path).config
            print("""
                parameters:    \(parameters)
                layers:        \(c.nLayer)
                n_embd:        \(c.nEmbd)
                n_ff:          \(c.nFF)
                heads:         \(c.nHead) query, \(c.nKVHead) key/value, head_dim \(c.headDim)
                context:       \(c.contextLength) tokens (trained)
                rope base:     \(c.ropeBase)\(c.slidingWindow.map { ", local \(c.ropeBaseLocal), sliding window \($0)" } ?? "")
                """)
        } catch {
            print("weights:       not loadable (\(error))")
        }
        print("""
            vocabulary:    \(t.vocabularySize) tokens, tokenizer \(t.model)\(t.preTokenizer.map { ", pre-tokenizer \($0)" } ?? "")
            BOS:           \(special(t.bosID)) (added: \(t.addsBOS))
            EOS:           \(special(t.eosID))
            end of generation: \(t.eogIDs.sorted().map { special($0) }.joined(separator: ", "))
            kernels:       \(KernelSet.active) (this CPU; own kernels for \(KernelSet.active.ownTypes.map(\.description).joined(separator: " ")))
            tensor types:  \(typeCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            """)
    }
}

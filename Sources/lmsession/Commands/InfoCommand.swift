import LMGGUF
import LMKernels
import LMTransformer

/// `lmsession info`: architecture, sizes, tensor type counts and special tokens of a model;
/// `lmsession info --kernels`: only the kernel set this CPU runs (`portable`, `avx2`).
enum InfoCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model"], switches: ["kernels"])
        guard a.positional.isEmpty else { throw .usage("info takes no positional arguments") }
        if a.has("kernels") {
            print(KernelSet.active)
            return
        }
        let model = try ModelLocator.load(a.string("model"))
        let c = model.config, t = model.tokenizer
        var typeCounts: [String: Int] = [:]
        var parameters = 0
        for info in model.file.tensors {
            typeCounts[info.type.description, default: 0] += 1
            parameters += info.elementCount
        }
        func special(_ id: Int?) -> String { id.map { "\($0) \(t.tokenText($0).debugDescription)" } ?? "none" }
        print("""
            file:          \(model.path)
            name:          \(model.name)
            GGUF version:  \(model.file.version), \(model.file.tensors.count) tensors, \(model.file.keys.count) metadata keys, \(model.file.bytes.count) bytes
            architecture:  \(c.architecture)
            parameters:    \(parameters)
            layers:        \(c.nLayer)
            n_embd:        \(c.nEmbd)
            n_ff:          \(c.nFF)
            heads:         \(c.nHead) query, \(c.nKVHead) key/value, head_dim \(c.headDim)
            context:       \(c.contextLength) tokens (trained)
            rope base:     \(c.ropeBase)\(c.slidingWindow.map { ", local \(c.ropeBaseLocal), sliding window \($0)" } ?? "")
            vocabulary:    \(c.vocabSize) tokens, tokenizer \(t.model)
            BOS:           \(special(t.bosID)) (added: \(t.addsBOS))
            EOS:           \(special(t.eosID))
            end of generation: \(t.eogIDs.sorted().map { special($0) }.joined(separator: ", "))
            kernels:       \(KernelSet.active) (this CPU; own kernels for \(KernelSet.active.ownTypes.map(\.description).joined(separator: " ")))
            tensor types:  \(typeCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            """)
    }
}

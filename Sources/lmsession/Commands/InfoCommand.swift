import Foundation
import LMGGUF
import LMKernels
import LMTokenizer
import LMTransformer

/// `lmsession info`: architecture, sizes, tensor type counts and special tokens of a model. The
/// tokenizer part needs only the GGUF metadata. For an architecture LMSession runs it prints what
/// the architecture is (norms, feed-forward, RoPE, biases, window, chat fallback) and, when the
/// weights load, the hyperparameters as read (RoPE scaling, windows, scales, caps); else the reason
/// they do not (a vocabulary-only file, or every key, value and tensor that is not implemented).
/// `lmsession info --kernels`: only the kernel set this CPU runs (`portable`, `avx2`).
enum InfoCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model"], switches: ["kernels"])
        guard a.positional.isEmpty else { throw .usage("info takes no positional arguments") }
        if a.has("kernels") {
            // The set is this CPU's, the same for every model.
            try a.only(["kernels"], in: "info --kernels")
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
            """)
        let archName = file.architecture ?? "none"
        if let architecture = Architecture(named: archName) {
            print(facts(architecture).map { "\($0.0.padding(toLength: 15, withPad: " ", startingAt: 0))\($0.1)" }.joined(separator: "\n"))
            do {
                let model = try TransformerModel(file: file, path: path)
                print("parameters:    \(parameters)")
                printConfig(model.config)
            } catch {
                if case let .unsupported(items) = error {
                    print(items.map { "unsupported:   \($0)" }.joined(separator: "\n"))
                }
                print("weights:       not loadable (\(error))")
            }
        } else {
            print("architecture:  \(archName) (not supported; supported: \(Architecture.all.map(\.name).joined(separator: ", ")))")
            print("weights:       not loadable")
        }
        print("""
            vocabulary:    \(t.vocabularySize) tokens, tokenizer \(t.model)\(t.preTokenizer.map { ", pre-tokenizer \($0)" } ?? "")
            BOS:           \(special(t.bosID)) (added: \(t.addsBOS))
            EOS:           \(special(t.eosID))
            end of generation: \(t.eogIDs.sorted().map { special($0) }.joined(separator: ", "))
            \(chatLines(t, architecture: Architecture(named: archName)).joined(separator: "\n"))
            kernels:       \(KernelSet.active) (this CPU; own kernels for \(KernelSet.active.ownTypes.map(\.description).joined(separator: " ")))
            tensor types:  \(typeCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            """)
    }

    /// The chat format sessions render with (the GGUF's Jinja template, or the native fallback), the
    /// tool-call convention they use, or why the template does not load (the unsupported construct and
    /// its line).
    static func chatLines(_ t: Tokenizer, architecture: Architecture?) -> [String] {
        let fallback = architecture ?? .llama
        let format: ChatFormat
        do {
            format = try ChatFormat(tokenizer: t, architecture: fallback)
        } catch {
            return ["chat template: from the GGUF, does not load: \(error)"]
        }
        var template = format.summary
        if let source = t.chatTemplate {
            let firstLine = source.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            template += ", \(source.utf8.count) bytes: \(String(firstLine.prefix(60)).debugDescription)\(firstLine.count > 60 ? "…" : "")"
        }
        let (tools, unsupported) = format.toolCalls(architecture: fallback)
        if let unsupported {
            return ["chat template: \(template)",
                    "tool calls:    not supported: the template writes them in a syntax LMSession does not constrain, "
                        + "e.g. \(unsupported.debugDescription); a session with tools is refused"]
        }
        return ["chat template: \(template)",
                "tool calls:    \(tools)\(architecture == nil && !tools.renderedByTemplate ? " (llama's fallback)" : "")"]
    }

    /// What the architecture is, from its description alone.
    static func facts(_ a: Architecture) -> [(String, String)] {
        let layer: String = switch a.blockNorms {
        case .preNorm: "pre-norm"
        case .sandwich: "pre- and post-norm (sandwich)"
        case .postNorm: "post-norm"
        case .preNormOrParallel: "pre-norm, parallel residual without ffn_norm"
        }
        let qk: String = switch a.queryKeyNorm {
        case .none: "none"
        case .perHead: "per head"
        case .whole: "over the whole projection"
        case .perHeadOwnWeightsIfPresent: "per head with own weights, if present"
        }
        let ffn: String = switch a.feedForward {
        case let .gated(act): "gated \(act.rawValue)"
        case let .gatedStacked(act): "gated \(act.rawValue), gate and up stacked in ffn_up"
        case let .plain(act): "\(act.rawValue) MLP"
        }
        var rope = a.rope.pairing.rawValue
        switch a.rope.frequencyFactors {
        case .none: break
        case .ropeFreqsOrLongRoPE: rope += ", factors from rope_freqs (or LongRoPE)"
        case .longRoPE: rope += ", LongRoPE factors"
        }
        if let n = a.rope.noRoPEEvery { rope += ", none in every \(n)th layer" }
        if a.rope.finetunedKeySwitchesRoPE { rope += ", off when rope.scaling.finetuned is false" }
        let window: String = switch a.slidingWindow {
        case .none: "none"
        case .ignored: "read, not applied (as llama.cpp)"
        case let .whenKeyPresent(pattern, _): "when attention.sliding_window is set, every \(pattern)th layer global"
        case let .always(w, pattern, _): "always (default \(w)), every \(pattern)th layer global"
        }
        func presence(_ p: Architecture.Presence) -> String { p.rawValue }
        return [
            ("architecture:", "\(a.name) (\(a.family))"),
            ("layer:", "\(a.norm.rawValue), \(layer); query/key norm \(qk)"),
            ("feed-forward:", ffn),
            ("RoPE:", rope),
            ("biases:", "Q/K/V optional, attention output \(presence(a.biases.attentionOutput)), feed-forward \(presence(a.biases.feedForward)), output head \(presence(a.biases.outputHead))"),
            ("window:", window),
            ("chat fallback:", "\(a.chatFallback.rawValue) (without tokenizer.chat_template); tool calls \(a.toolCalls.rawValue) "
                + "(when the template defines none; a template's own syntax wins)"),
        ]
    }

    /// The hyperparameters as read from the file.
    static func printConfig(_ c: ModelConfig) {
        func rope(_ p: RoPEParameters) -> String {
            var s = "base \(p.base), \(p.dimensions) dims"
            if p.frequencyScale != 1 { s += ", frequency scale \(p.frequencyScale)" }
            if p.extrapolation != 0 { s += ", YaRN over \(p.originalContext) positions" }
            if p.magnitude != 1 { s += ", magnitude \(p.magnitude)" }
            return s
        }
        let local = c.localLayers.filter { $0 }.count
        var lines = [
            "layers:        \(c.nLayer)",
            "n_embd:        \(c.nEmbd)",
            "n_ff:          \(c.nFF)",
            "heads:         \(c.nHead) query, \(c.nKVHead) key/value, head_dim \(c.headDim)",
            "context:       \(c.contextLength) tokens (trained)",
            "RoPE scaling:  \(c.ropeScalingFactor == 1 && c.ropeScaling == .linear ? "none" : c.ropeScaling.rawValue)\(c.ropeScalingFactor != 1 ? " ×\(c.ropeScalingFactor)" : "")",
            "RoPE global:   \(rope(c.ropeGlobal))",
        ]
        if local > 0, let w = c.slidingWindow {
            lines.append("RoPE local:    \(rope(c.ropeLocal))")
            lines.append("local layers:  \(local) of \(c.nLayer), window \(w) tokens")
        }
        let noRoPE = c.ropeLayers.filter { !$0 }.count
        if noRoPE > 0 { lines.append("no RoPE:       \(noRoPE) of \(c.nLayer) layers") }
        lines.append("attention:     scale \(c.attentionScale)\(c.attentionSoftcap.map { ", soft-cap \($0)" } ?? "")")
        if c.embeddingScale != 1 { lines.append("embed scale:   \(c.embeddingScale)") }
        if c.residualScale != 1 { lines.append("residual:      scale \(c.residualScale)") }
        if c.logitScale != 1 || c.finalSoftcap != nil {
            lines.append("logits:        \(c.logitScale != 1 ? "divided by \(c.logitScale)" : "")\(c.finalSoftcap.map { " soft-cap \($0)" } ?? "")")
        }
        lines += c.notApplied.map { "not applied:   \($0)" }
        print(lines.joined(separator: "\n"))
    }
}

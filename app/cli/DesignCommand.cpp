// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/DesignCommand.h"

#include "app/cli/CliCommands.h"
#include "app/cli/Flags.h"
#include "core/design/DesignSearch.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <map>
#include <ostream>

namespace archplay::cli {

const char* const kDesignUsage =
    R"(  design --params COUNT [--tolerance P] [--max-kv-per-token BYTES] [--kv-dtype D]
         [--vocab N] [--layers MIN:MAX] [--hidden MIN:MAX] [--aspect MIN:MAX] [--top N] [--json]
                                         dense Llama-style designs (RMSNorm, RoPE, SwiGLU, GQA)
                                         nearest a parameter budget, exact counts

design:
  --params COUNT        target total parameters: 7B, 1.5B, 350M or 7000000000
  --tolerance P         accepted distance from the target: 5% (default) or 0.05
  --max-kv-per-token B  most KV cache per token of context, in bytes, at --kv-dtype (default bf16)
  --vocab N             vocabulary size (default 128256)
  --layers MIN:MAX      depths searched (default 8:128)
  --hidden MIN:MAX      widths searched, in steps of 128 (default 512:16384)
  --aspect MIN:MAX      width per layer, hidden / layers (default 32:256)
  --top N               designs listed, nearest the target first, then least KV (default 10)
  The space also ranges over 1, 2, 4, 8 or 16 KV heads of head_dim 128 (query heads =
  hidden / 128), Llama's FFN width (ffn_dim_multiplier 1.0, 1.3 or 1.5, multiple_of 256), and
  tied and untied embeddings.
)";

namespace {

/// The flag a field of the design space is set by, for messages.
std::string flagOf(const std::string& field) {
    static const std::map<std::string, std::string> flags = {{"target_params", "--params"},
                                                             {"tolerance", "--tolerance"},
                                                             {"max_kv_bytes_per_token", "--max-kv-per-token"},
                                                             {"vocab_size", "--vocab"},
                                                             {"num_hidden_layers", "--layers"},
                                                             {"hidden_size", "--hidden"},
                                                             {"aspect", "--aspect"},
                                                             {"top", "--top"}};
    const auto it = flags.find(field);
    return it == flags.end() ? field : it->second;
}

std::int64_t signedSize(std::uint64_t value) {
    return value > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(value);
}

void printTable(const core::DesignSearchResult& result, const core::DesignTargets& targets, std::ostream& out) {
    fmt::print(out, "Designs of {} parameters within {:g}%, KV per token at {}{}\n", core::shortCount(targets.params),
               100 * targets.tolerance, core::toString(targets.kvDType),
               targets.maxKvBytesPerToken ? fmt::format(", at most {} bytes", *targets.maxKvBytesPerToken) : "");
    fmt::print(out, "searched {} candidates ({} skipped as impossible or repeated shapes); {} meet the targets\n",
               core::withThousands(result.evaluated + result.skipped), core::withThousands(result.skipped),
               core::withThousands(result.matched));
    for (const core::Diagnostic& d : result.diagnostics) {
        fmt::print(out, "  {}: {}\n", d.field, d.message);
    }
    if (result.candidates.empty()) {
        fmt::print(out, "\nno design in the space meets the targets\n");
        return;
    }
    fmt::print(out, "\n{:>3}  {:>17} {:>9} {:>6} {:>6} {:>5} {:>3} {:>8} {:>6} {:>7} {:>5} {:>10} {:>11}\n", "#",
               "parameters", "vs target", "layers", "hidden", "heads", "kv", "head_dim", "ffn", "vocab", "tied",
               "KV/token", "width/layer");
    int rank = 0;
    for (const core::DesignCandidate& c : result.candidates) {
        const core::DesignShape& s = c.shape;
        const double offset = 100.0 * (static_cast<double>(c.params) - static_cast<double>(targets.params)) /
                              static_cast<double>(targets.params);
        fmt::print(out, "{:>3}  {:>17} {:>+8.3f}% {:>6} {:>6} {:>5} {:>3} {:>8} {:>6} {:>7} {:>5} {:>10} {:>11.1f}\n",
                   ++rank, core::withThousands(c.params), offset, s.layers, s.hiddenSize, s.numHeads, s.numKvHeads,
                   s.headDim, s.intermediateSize, s.vocabSize, s.tiedEmbeddings ? "yes" : "no",
                   core::binaryBytes(c.kvBytesPerToken), static_cast<double>(s.hiddenSize) / s.layers);
    }
}

/// The space and targets the flags describe: the core's default space with the tool's aspect bounds
/// (32 to 256), narrowed by --vocab, --layers and --hidden.
struct DesignRequest {
    core::DesignSpace space;
    core::DesignTargets targets;
};

DesignRequest designRequest(const Options& options) {
    const std::string* params = options.value("--params");
    if (params == nullptr) {
        throw UsageError{"--params is required"};
    }
    DesignRequest request;
    core::DesignSpace& space = request.space;
    core::DesignTargets& targets = request.targets;
    targets.params = countNumber("--params", *params);
    targets.minAspect = 32;
    targets.maxAspect = 256;
    if (const std::string* text = options.value("--tolerance")) {
        targets.tolerance = fractionNumber("--tolerance", *text);
    }
    if (const std::string* text = options.value("--max-kv-per-token")) {
        targets.maxKvBytesPerToken = wholeNumber("--max-kv-per-token", *text, false);
    }
    if (const std::string* text = options.value("--kv-dtype")) {
        targets.kvDType = dtypeName("--kv-dtype", *text);
    }
    if (const std::string* text = options.value("--vocab")) {
        space.vocabSizes = {signedSize(wholeNumber("--vocab", *text, false))};
    }
    if (const std::string* text = options.value("--layers")) {
        const auto [min, max] = wholeRange("--layers", *text);
        space.layers = core::DesignRange::span(signedSize(min), signedSize(max));
    }
    if (const std::string* text = options.value("--hidden")) {
        const auto [min, max] = wholeRange("--hidden", *text);
        space.hiddenSize = core::DesignRange::span(signedSize(min), signedSize(max), 128);
    }
    if (const std::string* text = options.value("--aspect")) {
        const auto [min, max] = wholeRange("--aspect", *text);
        targets.minAspect = static_cast<double>(min);
        targets.maxAspect = static_cast<double>(max);
    }
    if (const std::string* text = options.value("--top")) {
        targets.top = wholeNumber("--top", *text, false);
    }
    return request;
}

/// The errors of a search as one line, each under the flag that sets its field.
std::string errorLine(const core::Diagnostics& diagnostics) {
    std::string message;
    for (const core::Diagnostic& d : diagnostics) {
        if (d.severity == core::Severity::Error) {
            message += fmt::format("{}{}: {}", message.empty() ? "" : "; ", flagOf(d.field), d.message);
        }
    }
    return message;
}

/// Runs the search; a space the core rejects is a usage error, printed with the design usage.
int runDesign(const Options& options, const DesignRequest& request, std::ostream& out, std::ostream& err) {
    const core::DesignSearchResult result = core::searchDesigns(request.space, request.targets);
    if (core::hasErrors(result.diagnostics)) {
        return printUsageError(UsageError{errorLine(result.diagnostics), false}, kDesignUsage, err);
    }
    if (options.json) {
        out << core::designSearchJson(result, request.targets).dump(2) << "\n";
    } else {
        printTable(result, request.targets, out);
    }
    return Success;
}

} // namespace

CommandRunner parseDesign(const std::vector<std::string>& args) {
    Options options = parseOptions(args, {"--params", "--tolerance", "--max-kv-per-token", "--kv-dtype", "--vocab",
                                          "--layers", "--hidden", "--aspect", "--top"});
    if (!options.positional.empty()) {
        throw UsageError{"design takes no CONFIG; describe the target with --params"};
    }
    const DesignRequest request = designRequest(options);
    return [options, request](std::ostream& out, std::ostream& err) {
        return runDesign(options, request, out, err);
    };
}

} // namespace archplay::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/DesignCommand.h"

#include "app/cli/CliCommands.h"
#include "app/cli/Flags.h"
#include "core/design/TargetSearch.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <sstream>

namespace archplay::cli {

const char* const kDesignUsage =
    R"(  design --params COUNT [--tolerance P] [--max-kv-per-token BYTES] [--kv-dtype D]
         [--vocab N] [--layers MIN:MAX] [--hidden MIN:MAX] [--aspect MIN:MAX] [--top N] [--json]
                                         dense Llama-style designs (RMSNorm, RoPE, SwiGLU, GQA)
                                         nearest a parameter budget, exact counts: the
                                         search below, ranked by distance alone

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

const char* const kSearchUsage =
    R"(  search --target-params COUNT [--active COUNT] [--tolerance P] [--moe] [--mla]
         [--kv-per-token BYTES] [--kv-budget-bytes BYTES --seq N [--batch B]] [--kv-dtype D]
         [--gpu ID --gpus N [--weight-dtype F] [--fit serving|training]] [--max-flops-per-token F]
         [--vocab N[,N...]] [--layers MIN:MAX] [--hidden MIN:MAX] [--head-dim N[,N...]]
         [--pareto X,Y] [--limit K] [--json]
                                         decoders (dense, MoE, latent attention) meeting a target,
                                         ranked by the rules of published models, exact counts

search:
  --target-params COUNT   total parameters: 7B, 1.5B, 350M or 7000000000
  --active COUNT          active parameters per token (with --moe or --mla)
  --tolerance P           accepted distance from each count: 5% (default) or 0.05
  --moe                   mixture-of-experts decoders (qwen3_moe: GQA, dense-first layers)
  --mla                   latent attention and MoE (deepseek_v3: shared experts, q/kv LoRA)
  --kv-per-token B        most KV cache per token of context, at --kv-dtype (default bf16)
  --kv-budget-bytes B     most KV cache at --seq tokens (default 4096) x --batch sequences
  --gpu ID, --gpus N      weights (--weight-dtype, default bf16) and that cache must fit on N GPUs
                          (--fit training: the training state, checked on the best 8 x --limit)
  --max-flops-per-token F most forward FLOPs of a decode step at --seq: 15G, 1.5T or digits
  --vocab N[,N...]        vocabularies searched (default 128256)
  --layers, --hidden      depths (default 8:128) and widths (default 512:16384, steps of 128)
  --head-dim N[,N...]     head dimensions (default 128; 64 and 256 also published)
  --pareto X,Y            the two figures of the Pareto front (default distance,kv_bytes_per_token):
                          distance, plausibility, score or a figure key of 'compare'
  --limit K               designs listed (default 10)
  Rank: the sum of the rule penalties (hidden a multiple of 128, heads for 8-way tensor
  parallelism, 4-8 query heads per KV head, FFN 2.6-3.6 x hidden, depth-to-width near the
  presets' curve, head_dim 128, tying by size, experts for 8-way expert parallelism) plus the
  distance as a fraction of the tolerance. '*' marks the Pareto front among the designs listed.
)";

namespace {

/// The flag a field of the design space is set by, for messages.
std::string designFlagOf(const std::string& field) {
    static const std::map<std::string, std::string> flags = {{"target_params", "--params"},
                                                             {"tolerance", "--tolerance"},
                                                             {"max_kv_bytes_per_token", "--max-kv-per-token"},
                                                             {"vocab_size", "--vocab"},
                                                             {"num_hidden_layers", "--layers"},
                                                             {"hidden_size", "--hidden"},
                                                             {"aspect", "--aspect"},
                                                             {"top", "--top"},
                                                             {"active_params", "--active"},
                                                             {"max_kv_bytes", "--kv-budget-bytes"},
                                                             {"max_flops_per_token", "--max-flops-per-token"},
                                                             {"gpus", "--gpus"},
                                                             {"weight_format", "--weight-dtype"},
                                                             {"head_dim", "--head-dim"}};
    const auto it = flags.find(field);
    return it == flags.end() ? field : it->second;
}

std::int64_t signedSize(std::uint64_t value) {
    return value > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(value);
}

void printTable(const core::TargetSearchResult& result, const core::SearchTargets& targets, std::ostream& out) {
    fmt::print(out, "Designs of {} parameters within {:g}%, KV per token at {}{}\n", core::shortCount(targets.params),
               100 * targets.tolerance, core::toString(targets.scenario.kvDType),
               targets.maxKvBytesPerToken ? fmt::format(", at most {} bytes", *targets.maxKvBytesPerToken) : "");
    fmt::print(out, "searched {} candidates; {} meet the targets\n", core::withThousands(result.evaluated),
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
    for (const core::TargetCandidate& c : result.candidates) {
        const core::DesignShape& s = c.shape;
        const double offset = 100.0 * (static_cast<double>(c.params) - static_cast<double>(targets.params)) /
                              static_cast<double>(targets.params);
        fmt::print(out, "{:>3}  {:>17} {:>+8.3f}% {:>6} {:>6} {:>5} {:>3} {:>8} {:>6} {:>7} {:>5} {:>10} {:>11.1f}\n",
                   ++rank, core::withThousands(c.params), offset, s.layers, s.hiddenSize, s.numHeads, s.numKvHeads,
                   s.headDim, s.intermediateSize, s.vocabSize, s.tiedEmbeddings ? "yes" : "no",
                   core::binaryBytes(c.kvBytesPerToken), static_cast<double>(s.hiddenSize) / s.layers);
    }
}

/// The space and targets the flags describe: the target search's dense space without multi-head
/// attention (1 to 16 KV heads), ranked by distance alone, with the tool's aspect bounds (32 to 256),
/// narrowed by --vocab, --layers and --hidden.
struct DesignRequest {
    core::TargetSpace space;
    core::SearchTargets targets;
};

DesignRequest designRequest(const Options& options) {
    const std::string* params = options.value("--params");
    if (params == nullptr) {
        throw UsageError{"--params is required"};
    }
    DesignRequest request;
    core::TargetSpace& space = request.space;
    core::SearchTargets& targets = request.targets;
    space.multiHead = false;
    targets.rank = core::SearchRank::Distance;
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
        targets.scenario.kvDType = dtypeName("--kv-dtype", *text);
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

/// Runs the search; a space the core rejects is a usage error, printed with the design usage.
int runDesign(const Options& options, const DesignRequest& request, std::ostream& out, std::ostream& err) {
    const core::TargetSearchResult result = core::searchTargets(request.space, request.targets);
    if (core::hasErrors(result.diagnostics)) {
        return printUsageError(refusedRequest(result.diagnostics, designFlagOf), kDesignUsage, err);
    }
    if (options.json) {
        out << core::targetSearchJson(result, request.targets).dump(2) << "\n";
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

namespace {

/// A list "N,N,..." of positive whole numbers.
std::vector<std::int64_t> wholeList(const std::string& flag, const std::string& text) {
    std::vector<std::int64_t> values;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        values.push_back(signedSize(wholeNumber(flag, item, false)));
    }
    if (values.empty()) {
        throw UsageError{fmt::format("{} takes a list of whole numbers", flag)};
    }
    return values;
}

/// A FLOPs figure: "15G", "1.5T" or digits.
std::uint64_t flopsNumber(const std::string& flag, const std::string& text) {
    static const std::map<char, double> scales = {{'K', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}, {'P', 1e15}};
    if (!text.empty() && scales.count(static_cast<char>(std::toupper(text.back()))) != 0) {
        const double scale = scales.at(static_cast<char>(std::toupper(text.back())));
        try {
            std::size_t used = 0;
            const double value = std::stod(text.substr(0, text.size() - 1), &used);
            if (used == text.size() - 1 && value > 0 && value * scale < 1.8e19) {
                return static_cast<std::uint64_t>(std::llround(value * scale));
            }
        } catch (const std::exception&) {
        }
        throw UsageError{fmt::format("{} takes FLOPs: 15G, 1.5T or digits; not '{}'", flag, text)};
    }
    return wholeNumber(flag, text, false);
}

struct SearchRequest {
    core::TargetSpace space;
    core::SearchTargets targets;
};

SearchRequest searchRequest(const Options& options) {
    const std::string* params = options.value("--target-params");
    if (params == nullptr) {
        throw UsageError{"--target-params is required"};
    }
    SearchRequest request;
    core::TargetSpace& space = request.space;
    core::SearchTargets& targets = request.targets;
    targets.params = countNumber("--target-params", *params);
    targets.scenario = scenarioFromFlags(options.values);
    targets.minAspect = 16;
    targets.maxAspect = 512;
    space.moe = options.switches.count("--moe") != 0;
    space.mla = options.switches.count("--mla") != 0;
    if (const std::string* text = options.value("--active")) {
        targets.activeParams = countNumber("--active", *text);
    }
    if (const std::string* text = options.value("--tolerance")) {
        targets.tolerance = fractionNumber("--tolerance", *text);
    }
    if (const std::string* text = options.value("--kv-per-token")) {
        targets.maxKvBytesPerToken = wholeNumber("--kv-per-token", *text, false);
    }
    if (const std::string* text = options.value("--kv-budget-bytes")) {
        targets.maxKvBytesScenario = wholeNumber("--kv-budget-bytes", *text, false);
    }
    if (const std::string* text = options.value("--max-flops-per-token")) {
        targets.maxFlopsPerToken = flopsNumber("--max-flops-per-token", *text);
    }
    const bool gpus = options.value("--gpu") != nullptr || options.value("--gpus") != nullptr;
    if (const std::string* text = options.value("--fit")) {
        if (*text != "serving" && *text != "training") {
            throw UsageError{fmt::format("--fit takes serving or training; not '{}'", *text)};
        }
        if (!gpus) {
            throw UsageError{"--fit needs --gpu or --gpus"};
        }
        targets.fitTraining = *text == "training";
    }
    targets.fitServing = gpus && !targets.fitTraining;
    if (const std::string* text = options.value("--vocab")) {
        space.vocabSizes = wholeList("--vocab", *text);
    }
    if (const std::string* text = options.value("--head-dim")) {
        space.headDims = wholeList("--head-dim", *text);
    }
    if (const std::string* text = options.value("--layers")) {
        const auto [min, max] = wholeRange("--layers", *text);
        space.layers = core::DesignRange::span(signedSize(min), signedSize(max));
    }
    if (const std::string* text = options.value("--hidden")) {
        const auto [min, max] = wholeRange("--hidden", *text);
        space.hiddenSize = core::DesignRange::span(signedSize(min), signedSize(max), 128);
    }
    if (const std::string* text = options.value("--pareto")) {
        const std::size_t comma = text->find(',');
        const auto x = core::axisFromKey(text->substr(0, comma));
        const auto y = comma == std::string::npos ? std::nullopt : core::axisFromKey(text->substr(comma + 1));
        if (!x || !y) {
            throw UsageError{fmt::format("--pareto takes two figures X,Y (distance, plausibility, score, "
                                         "total_params, kv_bytes_per_token, ...); not '{}'",
                                         *text)};
        }
        targets.paretoX = *x;
        targets.paretoY = *y;
    }
    if (const std::string* text = options.value("--limit")) {
        targets.top = wholeNumber("--limit", *text, false);
    }
    return request;
}

std::string shapeText(const core::DesignShape& s) {
    std::string text = fmt::format("{} x {}, {} heads", s.layers, s.hiddenSize, s.numHeads);
    if (s.kvLoraRank > 0) {
        text += fmt::format(" MLA kv_lora {} q_lora {}", s.kvLoraRank,
                            s.qLoraRank > 0 ? std::to_string(s.qLoraRank) : "none");
    } else {
        text += fmt::format(" / {} KV", s.numKvHeads);
    }
    text += fmt::format(", head_dim {}", s.headDim);
    if (s.numExperts > 0) {
        text += fmt::format(", {} experts top-{} x {}", s.numExperts, s.topK, s.expertIntermediateSize);
        if (s.sharedExperts > 0) {
            text += fmt::format(" + {} shared", s.sharedExperts);
        }
        if (s.denseFirstLayers > 0) {
            text += fmt::format(", {} dense-first x {}", s.denseFirstLayers, s.intermediateSize);
        }
    } else {
        text += fmt::format(", FFN {}", s.intermediateSize);
    }
    text += fmt::format(", vocab {}{}", s.vocabSize, s.tiedEmbeddings ? " tied" : "");
    return text;
}

void printSearch(const core::TargetSearchResult& result, const core::SearchTargets& targets,
                 const core::SeedDesign& seed, std::ostream& out) {
    fmt::print(out, "Designs of {} parameters{} within {:g}%, KV at {}\n", core::shortCount(targets.params),
               targets.activeParams ? fmt::format(" ({} active)", core::shortCount(*targets.activeParams)) : "",
               100 * targets.tolerance, core::toString(targets.scenario.kvDType));
    fmt::print(out, "searched {} candidates; {} meet the targets\n", core::withThousands(result.evaluated),
               core::withThousands(result.matched));
    for (const core::Diagnostic& d : result.diagnostics) {
        fmt::print(out, "  {}: {}\n", d.field, d.message);
    }
    if (seed.analysis && seed.analysis->valid) {
        fmt::print(out, "seed heuristic (12 L d^2, L = d/100, head_dim 128, FFN 8/3): {} = {} parameters (exact)\n",
                   shapeText(seed.shape), core::withThousands(seed.analysis->params.total));
    }
    if (result.candidates.empty()) {
        fmt::print(out, "\nno design in the space meets the targets\n");
        return;
    }
    fmt::print(out, "\n{:>3}  {:>17} {:>17} {:>9} {:>10} {:>6} {:>6}  design\n", "#", "total", "active", "vs target",
               "KV/token", "rules", "score");
    int rank = 0;
    for (const core::TargetCandidate& c : result.candidates) {
        const double offset = 100.0 * (static_cast<double>(c.params) - static_cast<double>(targets.params)) /
                              static_cast<double>(targets.params);
        fmt::print(out, "{:>3}{} {:>17} {:>17} {:>+8.3f}% {:>10} {:>6.2f} {:>6.2f}  {}\n", ++rank, c.pareto ? '*' : ' ',
                   core::withThousands(c.params), core::withThousands(c.activeParams), offset,
                   core::binaryBytes(c.kvBytesPerToken), c.plausibility, c.score, shapeText(c.shape));
        for (const core::RulePenalty& p : c.penalties) {
            fmt::print(out, "        {:+.2f} {}: {}\n", p.penalty, p.key, p.text);
        }
    }
    fmt::print(out, "\n* Pareto front on {} and {} among the designs listed\n", core::axisLabel(targets.paretoX),
               core::axisLabel(targets.paretoY));
}

int runSearch(const Options& options, const SearchRequest& request, std::ostream& out, std::ostream& err) {
    const core::TargetSearchResult result = core::searchTargets(request.space, request.targets);
    if (core::hasErrors(result.diagnostics) && result.evaluated == 0) {
        return printUsageError(refusedRequest(result.diagnostics, designFlagOf), kSearchUsage, err);
    }
    const core::SeedDesign seed =
        core::seedDesign(request.targets, request.space.vocabSizes.empty() ? 128256 : request.space.vocabSizes.front());
    if (options.json) {
        out << core::targetSearchJson(result, request.targets, &seed).dump(2) << "\n";
    } else {
        printSearch(result, request.targets, seed, out);
    }
    return Success;
}

} // namespace

CommandRunner parseSearch(const std::vector<std::string>& args) {
    std::vector<std::string> flags = scenarioFlags();
    for (const char* flag :
         {"--target-params", "--active", "--tolerance", "--kv-per-token", "--kv-budget-bytes", "--max-flops-per-token",
          "--fit", "--vocab", "--head-dim", "--layers", "--hidden", "--pareto", "--limit"}) {
        flags.emplace_back(flag);
    }
    Options options = parseOptions(args, flags, {"--moe", "--mla"});
    if (!options.positional.empty()) {
        throw UsageError{"search takes no CONFIG; describe the target with --target-params"};
    }
    const SearchRequest request = searchRequest(options);
    return [options, request](std::ostream& out, std::ostream& err) {
        return runSearch(options, request, out, err);
    };
}

} // namespace archplay::cli

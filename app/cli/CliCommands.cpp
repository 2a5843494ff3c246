// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliCommands.h"

#include "app/cli/CompareCommands.h"
#include "app/cli/ConfigSource.h"
#include "app/cli/CostCommands.h"
#include "app/cli/DesignCommand.h"
#include "app/cli/ExportCommand.h"
#include "app/cli/Flags.h"
#include "app/cli/SweepCommand.h"
#include "app/cli/ZooCommand.h"
#include "core/analysis/Analysis.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/params/Tensors.h"
#include "core/report/KvFigure.h"
#include "core/report/ReportJson.h"
#include "core/report/Tables.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>

namespace archplay::cli {
namespace {

using core::Analysis;

constexpr const char* kUsage = R"(usage: archplay-cli <command> [options]

commands:
  params CONFIG [--json]                 parameter count: total, active, breakdown
  tensors CONFIG [--layout checkpoint|transformers] [--json]
                                         every tensor of the state dict, layer numbers
                                         folded to '#': count, parameters, shape; transformers:
                                         as transformers 5.17 builds the model (experts fused)
  kv CONFIG --seq N [--batch B] [--kv-dtype fp32|fp16|bf16|fp8|int8|int4]
                [--encoder-seq N] [--weight-dtype FORMAT] [--gpu ID] [--gpus N]
                [--allocator architecture|transformers|vllm|llama.cpp] [--json]
                                         KV cache for a scenario, and whether weights and
                                         cache fit the GPUs (--gpu: see 'gpus', default h100-sxm);
                                         --allocator: the architecture's own cache (default),
                                         what transformers 5.17's cache classes hold, what
                                         vLLM 0.11 reserves (pages, groups) or what llama.cpp
                                         allocates (cells padded to 256, q8_0/q4_0 = int8/int4)
  validate CONFIG [--json]               errors, warnings and hints
  presets [--json]                       the built-in presets
  zoo [--dir FOLDER ...] [--hf-cache | --hf-root DIR] [--presets] [--filter EXPR] [--sort [-]KEY]
      [--json|--csv|--md] [--seq N --batch B --encoder-seq N --kv-dtype D --weight-dtype FORMAT
      --gpu ID --gpus N]
                                         the built-in presets (or every config.json under --dir,
                                         or the Hugging Face cache; --presets adds the presets)
                                         in one scenario, smallest first: shape, parameters,
                                         KV cache, weights, FLOPs, decode bound, layer-count
                                         estimates; configs that cannot be counted with their
                                         reason. EXPR: kind=moe,params>7B,family~llama
      [--plot NAME -o FILE [--mark CONFIG] [--theme light|dark]]
                                         one zoo plot of the rows kept, as png, svg or pdf:
                                         depth-width, ffn-ratio, head-dim, gqa-group,
                                         vocabulary, layer-estimate; --mark places a design
%COST%
%COMPARE%
%DESIGN%
%SWEEP%
%SEARCH%
%EXPORT%
CONFIG is a path to a Hugging Face config.json or a preset id (see 'presets').
Exit status: 0 success, 1 invalid or unreadable config, or output that could not be written, 2 bad usage.
)";

std::string usage() {
    std::string text = kUsage;
    text.replace(text.find("%COST%\n"), 7, std::string(kCostUsage));
    text.replace(text.find("%DESIGN%\n"), 9, std::string(kDesignUsage) + "\n");
    text.replace(text.find("%COMPARE%\n"), 10, std::string(kCompareUsage));
    text.replace(text.find("%SWEEP%\n"), 8, std::string(kSweepUsage) + "\n");
    text.replace(text.find("%SEARCH%\n"), 9, std::string(kSearchUsage) + "\n");
    text.replace(text.find("%EXPORT%\n"), 9, std::string(kExportUsage) + "\n");
    return text;
}

std::string describe(const core::Diagnostic& d) {
    return d.field.empty() ? d.message : fmt::format("{}: {}", d.field, d.message);
}

/// Refuses a command line without exactly one CONFIG.
/// Loads and analyzes CONFIG; on failure prints the reason and returns nullopt with `exitCode` set.
std::optional<Analysis> analyzeSpec(const Options& options, const core::Scenario& scenario, std::ostream& err,
                                    int& exitCode) {
    AnalyzedConfig analyzed = analyzeConfig(options.positional.front(), options.bestEffort, scenario);
    if (!analyzed.ok()) {
        exitCode = reportInvalid(analyzed.loaded.origin, analyzed.diagnostics(), err);
        return std::nullopt;
    }
    return std::move(analyzed.analysis);
}

void printTree(std::ostream& out, const core::ParamNode& node, std::uint64_t total, int depth) {
    const std::string name = std::string(static_cast<std::size_t>(depth) * 2, ' ') + node.name;
    fmt::print(out, "{:<64} {:>22} {:>30} {:>8}  {}\n", name, core::withThousands(node.params),
               core::perLayerText(node),
               (total == 0 ? std::string() : core::percentText(core::fractionOf(node.params, total))),
               core::toString(node.shape));
    for (const core::ParamNode& child : node.children) {
        printTree(out, child, total, depth + 1);
    }
}

int commandParams(const Options& options, std::ostream& out, std::ostream& err) {
    int exitCode = Success;
    const auto analysis = analyzeSpec(options, {}, err, exitCode);
    if (!analysis) {
        return exitCode;
    }
    const core::ParamReport& params = analysis->params;
    if (options.json) {
        nlohmann::json json = core::paramsJson(params);
        core::addExactness(json, analysis->config);
        out << json.dump(2) << "\n";
        return Success;
    }
    if (!analysis->config.exact()) {
        fmt::print(out, "{}\n", core::estimateLabel(analysis->config));
    }
    fmt::print(out, "{:<24} {:>22}  {}\n", "total parameters", core::withThousands(params.total),
               core::shortCount(params.total));
    fmt::print(out, "{:<24} {:>22}  {}\n", "active per token", core::withThousands(params.active),
               core::shortCount(params.active));
    fmt::print(out, "\n{:<64} {:>22} {:>30} {:>8}  {}\n", "component", "parameters", "per layer", "share", "shape");
    printTree(out, params.breakdown, params.total, 0);
    if (params.extras.params > 0) {
        fmt::print(out, "\n");
        printTree(out, params.extras, params.total, 0);
    }
    return Success;
}

/// Every tensor of the state dict, layer numbers folded to '#': count, elements, shape of one.
int commandTensors(const Options& options, core::TensorLayout layout, std::ostream& out, std::ostream& err) {
    int exitCode = Success;
    const auto analysis = analyzeSpec(options, {}, err, exitCode);
    if (!analysis) {
        return exitCode;
    }
    const std::vector<core::FoldedTensor> tensors = core::foldedTensors(analysis->config, analysis->plan, layout);
    if (options.json) {
        nlohmann::json list = nlohmann::json::object();
        for (const core::FoldedTensor& tensor : tensors) {
            nlohmann::json shape = nlohmann::json::array();
            for (core::Checked d : tensor.shape) {
                shape.push_back(d.overflowed() ? nlohmann::json() : nlohmann::json(d.value()));
            }
            const nlohmann::json elements =
                tensor.elements.overflowed() ? nlohmann::json() : nlohmann::json(tensor.elements.value());
            list[tensor.key] = nlohmann::json::array({tensor.count, elements, shape});
        }
        nlohmann::json json = {{"layout", layout == core::TensorLayout::Checkpoint ? "checkpoint" : "transformers"},
                               {"total", analysis->params.total},
                               {"tensors", list}};
        core::addExactness(json, analysis->config);
        out << json.dump(2) << "\n";
        return Success;
    }
    fmt::print(out, "{} layout: {}\n\n", layout == core::TensorLayout::Checkpoint ? "checkpoint" : "transformers",
               layout == core::TensorLayout::Checkpoint
                   ? "the family's checkpoint names, routed experts as it stores them"
                   : "as transformers 5.17 builds the model, routed experts fused");
    fmt::print(out, "{:<72} {:>6} {:>22}  {}\n", "tensor", "count", "parameters", "shape of one");
    for (const core::FoldedTensor& tensor : tensors) {
        fmt::print(out, "{:<72} {:>6} {:>22}  {}\n", tensor.key, tensor.count,
                   tensor.elements.overflowed() ? std::string("more than 2^64 - 1")
                                                : core::withThousands(tensor.elements.value()),
                   core::toString(core::TensorShape{tensor.shape, 1}));
    }
    fmt::print(out, "{:<72} {:>6} {:>22}\n", "total (unique parameters)", "",
               core::withThousands(analysis->params.total));
    return Success;
}

/// A KV figure with thousands separators, or "exceeds 2^64 - 1" for one an overflow saturated.
std::string kvFigure(const core::KvCacheReport& kv, std::uint64_t value) {
    return kv.overflow && value == UINT64_MAX ? std::string("exceeds 2^64 - 1") : core::withThousands(value);
}

/// The headline figures: per token, cross-attention, fixed state, totals and the device fit.
void printKvFigures(const Analysis& analysis, std::ostream& out) {
    const core::KvCacheReport& kv = analysis.kv;
    auto row = [&](const char* label, std::uint64_t bytes) {
        if (kv.overflow && bytes == UINT64_MAX) {
            fmt::print(out, "{:<36} {:>26}\n", label, kvFigure(kv, bytes));
            return;
        }
        fmt::print(out, "{:<36} {:>26}  {}\n", label, core::withThousands(bytes), core::binaryBytes(bytes));
    };
    fmt::print(out, "KV cache at {} tokens, batch {}, {}: {}\n({})\n\n", core::withThousands(kv.sequenceLength),
               kv.batch, core::toString(kv.dtype), core::allocatorLabel(kv.allocator),
               core::allocatorSource(kv.allocator));
    row("bytes per token", kv.bytesPerToken);
    // The per-head comparison where the allocator caches MLA's latent (an engine's rule has none).
    const bool latent = analysis.config.latent && !kv.latentExpanded && kv.expandedTotalBytes != kv.totalBytes;
    if (latent) {
        row("  if MLA cached per-head K and V", kv.expandedBytesPerToken);
    }
    if (kv.crossBytesPerEncoderToken > 0) {
        row("cross-attention per encoder token", kv.crossBytesPerEncoderToken);
    }
    if (kv.fixedStateBytes > 0) {
        row(kv.stateDType ? "fixed state (forced precision)" : "fixed state (as implemented)", kv.fixedStateBytes);
    }
    row("total bytes", kv.totalBytes);
    if (latent) {
        row("  if MLA cached per-head K and V", kv.expandedTotalBytes);
    }
    const std::vector<std::string> layout = core::engineLayoutLines(kv);
    if (!layout.empty()) {
        fmt::print(out, "\n{}\n", fmt::join(layout, "\n"));
    }
    fmt::print(out, "\nweights ({}, {}) + cache on {}: {}\n", core::formatInfo(analysis.scenario.weightFormat).id,
               core::binaryBytes(analysis.weightBytes), core::devicesLabel(analysis.scenario),
               core::fitVerdict(analysis.devices));
}

/// The cache by runs of identical decoder layers.
void printKvRuns(const Analysis& analysis, std::ostream& out) {
    fmt::print(out, "\n{:<10} {:<32} {:>12} {:>14} {:>22}\n", "layers", "kind", "elem/token", "cached tokens", "bytes");
    std::size_t layerIndex = 0;
    for (const core::LayerRun& run : analysis.plan.runs()) {
        const core::KvLayerCache& cache = analysis.kv.layers[layerIndex];
        layerIndex += static_cast<std::size_t>(run.count);
        if (run.kind.stack != core::Stack::Decoder) {
            continue;
        }
        const std::string range =
            run.count == 1 ? std::to_string(run.first) : fmt::format("{}-{}", run.first, run.first + run.count - 1);
        fmt::print(out, "{:<10} {:<32} {:>12} {:>14} {:>22}\n", range, core::layerKindName(analysis.config, run.kind),
                   kvFigure(analysis.kv, cache.selfElementsPerToken), core::withThousands(cache.cachedTokens),
                   fmt::format("{} x {}", run.count, kvFigure(analysis.kv, cache.bytes)));
    }
}

int commandKv(const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err) {
    int exitCode = Success;
    const auto analysis = analyzeSpec(options, scenario, err, exitCode);
    if (!analysis) {
        return exitCode;
    }
    const bool unsupported = !analysis->kv.unsupported.empty();
    if (options.json) {
        out << core::kvJson(*analysis).dump(2) << "\n";
    } else if (!unsupported) {
        printKvFigures(*analysis, out);
        printKvRuns(*analysis, out);
    }
    if (unsupported) {
        // No figure rather than another rule's: the allocator has none for this model or format.
        fmt::print(err, "archplay-cli: {}: {}\n", options.positional.front(), analysis->kv.unsupported);
        return InvalidConfig;
    }
    if (analysis->kv.overflow) {
        fmt::print(err,
                   "archplay-cli: {}: the KV cache at {} tokens, batch {} exceeds 2^64 - 1 bytes; the figures "
                   "marked so are not sizes\n",
                   options.positional.front(), core::withThousands(analysis->kv.sequenceLength), analysis->kv.batch);
        return InvalidConfig;
    }
    return Success;
}

int commandValidate(const Options& options, std::ostream& out, std::ostream& err) {
    const AnalyzedConfig analyzed = analyzeConfig(options.positional.front(), options.bestEffort, {});
    const LoadedConfig& loaded = analyzed.loaded;
    const core::Diagnostics& diagnostics = analyzed.diagnostics();
    const bool invalid = !loaded.config || core::hasErrors(diagnostics);
    if (options.json) {
        nlohmann::json json{{"valid", !invalid}, {"diagnostics", core::diagnosticsJson(diagnostics)}};
        if (loaded.config) {
            core::addExactness(json, *loaded.config);
        }
        out << json.dump(2) << "\n";
    } else {
        for (const core::Diagnostic& d : diagnostics) {
            fmt::print(out, "{:<8} {}\n", core::toString(d.severity), describe(d));
        }
        fmt::print(out, "{}: {}\n", loaded.origin, invalid ? "invalid" : "valid");
    }
    if (invalid) {
        return reportInvalid(loaded.origin, diagnostics, err);
    }
    return Success;
}

int commandPresets(const Options& options, std::ostream& out) {
    const auto& presets = core::builtinPresets();
    if (options.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const core::Preset& preset : presets) {
            list.push_back(core::presetJson(preset.info));
        }
        out << nlohmann::json{{"presets", list}}.dump(2) << "\n";
        return Success;
    }
    fmt::print(out, "{:<26} {:<34} {:<20} {:>18}\n", "id", "name", "family", "published");
    for (const core::Preset& preset : presets) {
        const core::PresetInfo& info = preset.info;
        fmt::print(out, "{:<26} {:<34} {:<20} {:>18}\n", info.id, info.name, info.family,
                   info.publishedParams ? core::withThousands(*info.publishedParams) : info.publishedLabel);
    }
    return Success;
}

using Arguments = std::vector<std::string>;

/// One command: its name, how its arguments are read into something to run (`args` starts with the
/// name; a UsageError when they cannot be), and its own usage text for those that print their own
/// (design, export), or nullptr.
struct Command {
    std::string_view name;
    CommandRunner (*parse)(const Arguments& args);
    const char* const* ownUsage;
};

/// Every command, with the options it reads.
constexpr Command kCommands[] = {
    {"params",
     [](const Arguments& args) -> CommandRunner {
         Options options = parseOptions(args, {});
         requireOneConfig(options);
         return [options](std::ostream& out, std::ostream& err) {
             return commandParams(options, out, err);
         };
     },
     nullptr},
    {"tensors",
     [](const Arguments& args) -> CommandRunner {
         Options options = parseOptions(args, {"--layout"});
         requireOneConfig(options);
         core::TensorLayout layout = core::TensorLayout::Checkpoint;
         if (const std::string* text = options.value("--layout")) {
             if (*text == "transformers") {
                 layout = core::TensorLayout::Transformers;
             } else if (*text != "checkpoint") {
                 throw UsageError{fmt::format("--layout takes checkpoint or transformers, not '{}'", *text)};
             }
         }
         return [options, layout](std::ostream& out, std::ostream& err) {
             return commandTensors(options, layout, out, err);
         };
     },
     nullptr},
    {"kv",
     [](const Arguments& args) -> CommandRunner {
         Options options = parseOptions(args, scenarioFlags());
         if (options.values.count("--seq") == 0) {
             throw UsageError{"--seq is required"};
         }
         const core::Scenario scenario = scenarioFromFlags(options.values);
         requireOneConfig(options);
         return [options, scenario](std::ostream& out, std::ostream& err) {
             return commandKv(options, scenario, out, err);
         };
     },
     nullptr},
    {"validate",
     [](const Arguments& args) -> CommandRunner {
         Options options = parseOptions(args, {});
         requireOneConfig(options);
         return [options](std::ostream& out, std::ostream& err) {
             return commandValidate(options, out, err);
         };
     },
     nullptr},
    {"presets",
     [](const Arguments& args) -> CommandRunner {
         Options options = parseOptions(args, {});
         if (!options.positional.empty()) {
             throw UsageError{"presets takes no arguments"};
         }
         return [options](std::ostream& out, std::ostream&) {
             return commandPresets(options, out);
         };
     },
     nullptr},
    {"zoo", parseZoo, nullptr},
    {"compute", parseCompute, nullptr},
    {"memory", parseMemory, nullptr},
    {"roofline", parseRoofline, nullptr},
    {"fit", parseFit, nullptr},
    {"gpus", parseGpus, nullptr},
    {"design", parseDesign, &kDesignUsage},
    {"compare", parseCompare, nullptr},
    {"heads", parseHeads, nullptr},
    {"sweep", parseSweep, &kSweepUsage},
    {"search", parseSearch, &kSearchUsage},
    {"export", parseExport, &kExportUsage},
};

bool isHelp(const std::string& arg) {
    return arg == "--help" || arg == "-h" || arg == "help";
}

/// Prints a UsageError of a command without usage text of its own, followed by the tool's usage.
int printToolUsageError(const UsageError& error, std::ostream& err) {
    if (!error.showUsage) {
        fmt::print(err, "archplay-cli: {}\n", error.message);
        return BadUsage;
    }
    fmt::print(err, "archplay-cli: {}\n\n{}", error.message, usage());
    return BadUsage;
}

int runCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        const ParsedCommandLine parsed = parseCommandLine(args);
        if (!parsed.error) {
            return parsed.run(out, err);
        }
        return parsed.usage.empty() ? printToolUsageError(*parsed.error, err)
                                    : printUsageError(*parsed.error, parsed.usage, err);
    } catch (const UsageError& error) {
        return printToolUsageError(error, err);
    } catch (const std::exception& error) {
        fmt::print(err, "archplay-cli: internal error: {}\n", error.what());
        return InvalidConfig;
    }
}

} // namespace

ParsedCommandLine parseCommandLine(const std::vector<std::string>& args) {
    if (args.empty() || isHelp(args.front())) {
        const bool asked = !args.empty();
        return {[asked](std::ostream& out, std::ostream& err) {
                    (asked ? out : err) << usage();
                    return asked ? Success : BadUsage;
                },
                std::nullopt,
                {}};
    }
    for (const Command& command : kCommands) {
        if (args.front() == command.name) {
            try {
                return {command.parse(args), std::nullopt, {}};
            } catch (const UsageError& error) {
                return {{}, error, command.ownUsage ? *command.ownUsage : std::string_view()};
            }
        }
    }
    return {{}, UsageError{fmt::format("unknown command '{}'", args.front())}, {}};
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const int code = runCommand(args, out, err);
    // A full disk or a closed pipe shows only when the buffered output is flushed: check it here, once
    // for every command, so that no failed write ends in success.
    out.flush();
    if (!out) {
        fmt::print(err, "archplay-cli: cannot write to standard output\n");
        return code == Success ? InvalidConfig : code;
    }
    return code;
}

} // namespace archplay::cli

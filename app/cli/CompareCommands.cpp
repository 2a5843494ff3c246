// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CompareCommands.h"

#include "app/cli/ConfigSource.h"
#include "app/cli/Flags.h"
#include "core/design/Compare.h"
#include "core/design/HeadConfigs.h"
#include "core/report/Summary.h"
#include "core/util/Format.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <ostream>

namespace archplay::cli {

const char* const kCompareUsage =
    R"(  compare A B [C D] [--json|--csv|--md|--latex] [--seq N --batch B --kv-dtype D --weight-dtype FORMAT
          --gpu ID --gpus N ...]
                                         two to four configs side by side in one scenario: each
                                         figure, its difference and ratio to A, parameters by
                                         component, layer stacks, differing config.json fields
  heads CONFIG [--kv-dtype D] [--json]   every valid (heads, head_dim, KV heads) for the hidden
                                         size, with exact parameters and KV cache per token
)";

namespace {

/// Display columns of UTF-8 text: one per code point, enough for "—", "·" and "×".
std::size_t displayColumns(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(
        text.begin(), text.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}

/// Pads `text` to `width` display columns.
std::string padded(const std::string& text, std::size_t width, bool right) {
    const std::size_t columns = displayColumns(text);
    const std::string fill(width > columns ? width - columns : 0, ' ');
    return right ? fill + text : text + fill;
}

void printTable(const core::Comparison& comparison, std::ostream& out) {
    fmt::print(out, "{}\n\n", comparison.scenarioText);
    const auto rows = core::compareTableRows(comparison);
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            widths[c] = std::max(widths[c], displayColumns(row[c]));
        }
    }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += (c > 0 ? "  " : "") + padded(row[c], widths[c], c > 0);
        }
        line.erase(line.find_last_not_of(' ') + 1);
        fmt::print(out, "{}\n", line);
    }
    for (const std::string& note : core::compareNotes(comparison)) {
        fmt::print(out, "{}\n", note);
    }
}

int runCompare(const Options& options, const core::Scenario& scenario, std::ostream& out, std::ostream& err) {
    std::vector<core::CompareInput> inputs;
    for (const std::string& spec : options.positional) {
        AnalyzedConfig analyzed = analyzeConfig(spec, options.bestEffort, scenario);
        if (!analyzed.ok()) {
            return reportInvalid(analyzed.loaded.origin, analyzed.diagnostics(), err);
        }
        const std::string name = analyzed.loaded.preset ? analyzed.loaded.preset->info.name : spec;
        inputs.push_back({name, std::make_shared<const core::Analysis>(std::move(*analyzed.analysis))});
    }
    const core::Comparison comparison = core::compareAnalyses(inputs);
    if (core::hasErrors(comparison.diagnostics)) {
        return reportInvalid("compare", comparison.diagnostics, err);
    }
    if (options.json) {
        out << core::compareJson(comparison).dump(2) << "\n";
    } else if (options.switches.count("--csv") > 0) {
        out << core::compareCsv(comparison);
    } else if (options.switches.count("--md") > 0) {
        out << core::compareMarkdown(comparison);
    } else if (options.switches.count("--latex") > 0) {
        out << core::compareLatex(comparison);
    } else {
        printTable(comparison, out);
    }
    return Success;
}

std::string signedCount(std::int64_t value) {
    if (value == 0) {
        return "0";
    }
    const auto magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
    return (value < 0 ? "-" : "+") + core::withThousands(magnitude);
}

int runHeads(const Options& options, core::DType kvDType, std::ostream& out, std::ostream& err) {
    const LoadedConfig loaded = loadConfig(options.positional.front(), options.bestEffort);
    if (!loaded.config) {
        return reportInvalid(loaded.origin, loaded.diagnostics, err);
    }
    const core::ModelConfig& config = *loaded.config;
    const core::HeadConfigList list = core::listHeadConfigs(config, kvDType);
    if (list.configs.empty() && list.reason.rfind("the config is invalid", 0) == 0) {
        core::Diagnostics diagnostics = loaded.diagnostics;
        for (const core::Diagnostic& d : core::validate(config)) {
            diagnostics.push_back(d);
        }
        return reportInvalid(loaded.origin, diagnostics, err);
    }
    if (options.json) {
        out << core::headConfigsJson(list, config).dump(2) << "\n";
        return Success;
    }
    if (!list.estimate.empty()) {
        fmt::print(out, "{}\n", list.estimate);
    }
    if (list.configs.empty()) {
        fmt::print(out, "no head configurations: {}\n", list.reason);
        return Success;
    }
    fmt::print(out,
               "Head configurations for hidden_size {}: head_dim 32 to 256, up to {} heads, heads x head_dim a "
               "multiple of {} (or the hidden size) within 0.5-2x the hidden size, KV heads dividing the heads; "
               "KV cache per token at {}\n",
               config.hiddenSize, core::kMaxHeads, core::kQueryWidthMultiple, core::toString(kvDType));
    fmt::print(out, "{} combinations, {} invalid, {} not evaluated beyond the first {} valid; {} listed\n",
               list.candidates, list.invalid, list.dropped, core::kMaxHeadConfigs, list.configs.size());
    fmt::print(out, "tp8: heads divisible by 8, and KV heads divisible by 8 or dividing 8\n\n");
    fmt::print(out, "{:>5} {:>8} {:>8} {:>6} {:>5} {:>17} {:>15} {:>17} {:>10} {:>10}  {}\n", "heads", "head_dim",
               "kv_heads", "width", "attn", "total params", "vs current", "active params", "KV/token", "vs current",
               "flags");
    for (const core::HeadConfig& head : list.configs) {
        std::string flags;
        for (const auto& [on, name] : {std::pair{head.current, "current"}, std::pair{head.exactWidth, "exact-width"},
                                       std::pair{head.usualHeadDim, "usual"}, std::pair{head.tensorParallel8, "tp8"}}) {
            if (on) {
                flags += (flags.empty() ? "" : " ") + std::string(name);
            }
        }
        fmt::print(out, "{:>5} {:>8} {:>8} {:>6} {:>5} {:>17} {:>15} {:>17} {:>10} {:>10}  {}\n", head.shape.numHeads,
                   head.shape.headDim, head.shape.numKvHeads, head.queryWidth, core::toString(head.family),
                   core::withThousands(head.totalParams), signedCount(head.totalParamsDelta),
                   core::withThousands(head.activeParams), core::binaryBytes(head.kvBytesPerToken),
                   signedCount(head.kvBytesPerTokenDelta), flags);
    }
    return Success;
}

} // namespace

CommandRunner parseCompare(const std::vector<std::string>& args) {
    Options options = parseOptions(args, scenarioFlags(), {"--csv", "--md", "--latex"});
    if (options.positional.size() < 2 || options.positional.size() > core::kMaxCompared) {
        throw UsageError{fmt::format("compare takes two to {} configs (config.json paths or preset ids); {} given",
                                     core::kMaxCompared, options.positional.size())};
    }
    if (options.switches.size() + (options.json ? 1 : 0) > 1) {
        throw UsageError{"choose one of --json, --csv, --md and --latex"};
    }
    const core::Scenario scenario = scenarioFromFlags(options.values);
    return [options, scenario](std::ostream& out, std::ostream& err) {
        return runCompare(options, scenario, out, err);
    };
}

CommandRunner parseHeads(const std::vector<std::string>& args) {
    Options options = parseOptions(args, {"--kv-dtype"});
    if (options.positional.size() != 1) {
        throw UsageError{"expected exactly one CONFIG (a config.json path or a preset id)"};
    }
    const core::DType kvDType =
        options.value("--kv-dtype") ? dtypeName("--kv-dtype", *options.value("--kv-dtype")) : core::DType::BF16;
    return [options, kvDType](std::ostream& out, std::ostream& err) {
        return runHeads(options, kvDType, out, err);
    };
}

} // namespace archplay::cli

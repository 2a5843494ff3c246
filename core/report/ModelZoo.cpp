// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ModelZoo.h"

#include "core/analysis/DesignFigures.h"
#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "core/report/Tables.h"
#include "core/report/ZooQuery.h"
#include "core/util/Format.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace archplay::core {
namespace {

/// The first error as a reason that names its field: the message, prefixed by the field unless it says it.
std::optional<Diagnostic> firstError(const Diagnostics& diagnostics) {
    const auto it = std::find_if(diagnostics.begin(), diagnostics.end(),
                                 [](const Diagnostic& d) { return d.severity == Severity::Error; });
    return it == diagnostics.end() ? std::nullopt : std::optional<Diagnostic>(*it);
}

void setNotCounted(ZooRow& row, const Diagnostic& error) {
    row.status = ZooStatus::NotCounted;
    row.reasonField = error.field;
    row.reason = error.field.empty() || error.message.find(error.field) != std::string::npos
                     ? error.message
                     : error.field + ": " + error.message;
}

ZooLayerEstimate estimateLayers(const ModelConfig& config, const ParamReport& params) {
    ZooLayerEstimate estimate;
    const double total = static_cast<double>(params.total);
    const double hidden = static_cast<double>(config.hiddenSize);
    const double embeddingMatrices = (config.tieWordEmbeddings || !config.outputHead) ? 1.0 : 2.0;
    if (hidden > 0) {
        estimate.rule12 =
            (total - static_cast<double>(config.vocabSize) * hidden * embeddingMatrices) / (12.0 * hidden * hidden);
    }
    std::uint64_t layerSum = 0;
    std::unordered_map<std::uint64_t, std::size_t> frequency;
    for (const LayerParams& layer : params.layers) {
        layerSum += layer.total; // bounded by params.total, which did not overflow
        ++frequency[layer.total];
    }
    std::size_t most = 0;
    for (const auto& [count, layers] : frequency) {
        most = std::max(most, layers);
    }
    double tiedSum = 0;
    std::size_t tiedKinds = 0;
    for (const auto& [count, layers] : frequency) {
        if (layers == most) {
            tiedSum += static_cast<double>(count);
            ++tiedKinds;
        }
    }
    estimate.perLayerParams = tiedKinds > 0 ? tiedSum / static_cast<double>(tiedKinds) : 0;
    estimate.outerParams = params.total - std::min(layerSum, params.total);
    if (estimate.perLayerParams > 0) {
        estimate.perLayer = static_cast<double>(params.total - estimate.outerParams) / estimate.perLayerParams;
    }
    return estimate;
}

void fillShape(ZooRow& row, const ModelConfig& config) {
    row.architecture = std::string(toString(config.architecture));
    if (config.architecture == ArchitectureKind::EncoderOnly) {
        row.kind = "encoder";
        row.encoderLayers = config.numLayers;
    } else if (config.architecture == ArchitectureKind::EncoderDecoder) {
        row.kind = "encoder-decoder";
        row.encoderLayers = config.numEncoderLayers;
        row.decoderLayers = config.numLayers;
    } else {
        const bool moe = config.ffnKind == FfnKind::Moe;
        row.kind = config.hybrid() ? (moe ? "hybrid+moe" : "hybrid") : moe ? "moe" : "dense";
        row.decoderLayers = config.numLayers;
    }
    row.hiddenSize = config.hiddenSize;
    row.heads = config.numHeads;
    row.kvHeads = config.numKvHeads;
    row.headDim = config.queryKeyHeadDim();
    row.attention = attentionLabel(config);
    row.ffn = ffnKindLabel(config);
    const bool moe = config.ffnKind == FfnKind::Moe;
    const std::int64_t width = moe ? config.moe.expertIntermediateSize : config.intermediateSize;
    row.ffnRatio = config.hiddenSize > 0 ? static_cast<double>(width) / static_cast<double>(config.hiddenSize) : 0;
    row.experts = moe ? config.moe.numExperts : 0;
    row.topK = moe ? config.moe.topK : 0;
    row.vocabSize = config.vocabSize;
    row.context = config.maxPositions;
}

/// The text as an unsigned whole number when it is written as one ("8030261248"), else nullopt ("0.25", "-3").
std::optional<std::uint64_t> wholeNumber(const std::string& text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

bool rowBefore(const ZooRow& a, const ZooRow& b) {
    if (a.counted() != b.counted()) {
        return a.counted();
    }
    if (!a.counted()) {
        return a.id < b.id;
    }
    return std::tie(a.totalParams, a.id) < std::tie(b.totalParams, b.id);
}

} // namespace

std::string_view toString(ZooOrigin origin) {
    switch (origin) {
    case ZooOrigin::Preset:
        return "preset";
    case ZooOrigin::File:
        return "file";
    case ZooOrigin::HfCache:
        return "hf-cache";
    }
    return {};
}

std::string_view toString(ZooStatus status) {
    switch (status) {
    case ZooStatus::Exact:
        return "exact";
    case ZooStatus::Estimate:
        return "estimate";
    case ZooStatus::NotCounted:
        return "not counted";
    }
    return {};
}

std::string ZooRow::layersLabel() const {
    if (encoderLayers > 0 && decoderLayers > 0) {
        return fmt::format("{} + {}", encoderLayers, decoderLayers);
    }
    return std::to_string(encoderLayers > 0 ? encoderLayers : decoderLayers);
}

namespace {

/// A row's origin, name and family; not counted, with the reason, when the config did not import.
ZooRow describedRow(const ZooInput& input) {
    ZooRow row;
    row.origin = input.origin;
    row.id = input.source;
    row.snapshot = input.snapshot;
    row.path = input.path;
    row.name = input.name;
    row.family = input.family;
    row.released = input.released;
    row.publishedParams = input.publishedParams;
    // A file without a recorded name is named by its folder, as a checkpoint folder names its model.
    const std::string folder = std::filesystem::path(input.source).parent_path().filename().string();
    const std::string fallbackName = input.origin == ZooOrigin::File && !folder.empty() ? folder : input.source;
    const std::optional<ModelConfig>& config = input.imported.config;
    if (!config) {
        const std::optional<Diagnostic> error = firstError(input.imported.diagnostics);
        setNotCounted(row, error.value_or(Diagnostic{Severity::Error, "", "the config does not import"}));
        if (row.name.empty()) {
            row.name = fallbackName;
        }
        return row;
    }
    row.modelType = config->modelType;
    if (row.name.empty()) {
        row.name = recordedModelName(*config).value_or(fallbackName);
    }
    if (row.family.empty()) {
        row.family = config->modelType;
    }
    return row;
}

/// The figures of a row whose config imported, from its analysis.
void countRow(ZooRow& row, const Analysis& analysis) {
    if (!analysis.valid) {
        setNotCounted(
            row, firstError(analysis.diagnostics).value_or(Diagnostic{Severity::Error, "", "the config is not valid"}));
        return;
    }
    const ModelConfig& config = analysis.config;
    if (!config.exact()) {
        row.status = ZooStatus::Estimate;
        std::string fields;
        for (const std::string& field : config.ignoredFields) {
            fields += (fields.empty() ? "" : ", ") + field;
        }
        row.reason = "estimate: ignored " + fields;
        row.reasonField = config.ignoredFields.front();
    }
    fillShape(row, config);
    row.totalParams = analysis.params.total;
    row.activeParams = analysis.params.active;
    row.matchesPublished = row.publishedParams == row.totalParams;
    if (!analysis.kv.unsupported.empty()) {
        // No cache figure, fit or speed under an allocator without a rule: the reason instead.
        row.reason = analysis.kv.unsupported;
        row.reasonField = "kv_allocator";
        row.flopsPerToken = figureValue(analysis, DesignFigure::FlopsPerToken);
        return;
    }
    row.kvBytesPerToken = analysis.kv.bytesPerToken;
    row.kvTotalBytes = analysis.kv.totalBytes;
    row.weightBytes = analysis.weightBytes;
    row.weightFormat = formatInfo(analysis.scenario.weightFormat).id;
    row.weightsAsShipped = shippedFormat(config) == analysis.scenario.weightFormat;
    row.fits = analysis.devices.fits;
    row.fit = fitVerdict(analysis.devices);
    row.flopsPerToken = figureValue(analysis, DesignFigure::FlopsPerToken);
    row.decodeTokensPerSecond = figureValue(analysis, DesignFigure::DecodeTokensPerSecond);
    if (!analysis.params.overflow) {
        row.layerEstimate = estimateLayers(config, analysis.params);
    }
}

} // namespace

ZooRow zooRow(const ZooInput& input, const Scenario& scenario) {
    ZooRow row = describedRow(input);
    if (input.imported.config) {
        countRow(row, analyze(*input.imported.config, scenario));
    }
    return row;
}

ZooRow zooRow(const ZooInput& input, const Analysis& analysis) {
    ZooRow row = describedRow(input);
    if (input.imported.config) {
        countRow(row, analysis);
    }
    return row;
}

ZooRow designZooRow(const Analysis& analysis, const std::string& name) {
    ZooInput input;
    input.source = name;
    input.name = name;
    input.imported.config = analysis.config;
    return zooRow(input, analysis);
}

std::vector<ZooInput> presetZooInputs() {
    std::vector<ZooInput> inputs;
    for (const Preset& preset : builtinPresets()) {
        ZooInput input;
        input.origin = ZooOrigin::Preset;
        input.source = preset.info.id;
        input.name = preset.info.name;
        input.family = preset.info.family;
        input.released = parseReleaseDate(preset.info.released);
        input.publishedParams = preset.info.publishedParams;
        input.imported.config = presetConfig(preset);
        if (!input.imported.config) {
            input.imported.diagnostics.push_back({Severity::Error, "", "the preset does not import"});
        }
        inputs.push_back(std::move(input));
    }
    return inputs;
}

ModelZoo buildZoo(const std::vector<ZooInput>& inputs, const Scenario& scenario, unsigned threads) {
    ModelZoo zoo;
    zoo.scenario = scenario;
    zoo.rows.resize(inputs.size());
    if (threads == 0) {
        threads = std::max(1u, std::thread::hardware_concurrency());
    }
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, inputs.size() / 64)));
    auto work = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            zoo.rows[i] = zooRow(inputs[i], scenario);
        }
    };
    if (threads <= 1) {
        work(0, inputs.size());
    } else {
        std::vector<std::thread> workers;
        const std::size_t chunk = (inputs.size() + threads - 1) / threads;
        for (unsigned t = 0; t < threads; ++t) {
            workers.emplace_back(work, std::min(inputs.size(), t * chunk), std::min(inputs.size(), (t + 1) * chunk));
        }
        for (std::thread& worker : workers) {
            worker.join();
        }
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (zoo.rows[i].counted() || !inputs[i].imported.config) {
            continue;
        }
        for (const Diagnostic& d : validateScenario(*inputs[i].imported.config, scenario)) {
            if (d.severity == Severity::Error &&
                std::find(zoo.diagnostics.begin(), zoo.diagnostics.end(), d) == zoo.diagnostics.end()) {
                zoo.diagnostics.push_back(d);
            }
        }
    }
    std::sort(zoo.rows.begin(), zoo.rows.end(), rowBefore);
    return zoo;
}

ModelZoo modelZoo(const Scenario& scenario) {
    return buildZoo(presetZooInputs(), scenario);
}

std::string zooCsv(const ModelZoo& zoo) {
    std::string out;
    for (const ZooColumnInfo& info : zooColumns()) {
        out += (out.empty() ? "" : ",") + std::string(info.key);
    }
    out += "\n";
    for (const ZooRow& row : zoo.rows) {
        std::string line;
        for (const ZooColumnInfo& info : zooColumns()) {
            line += (info.column == zooColumns().front().column ? "" : ",") + csvField(zooExactText(row, info.column));
        }
        out += line + "\n";
    }
    return out;
}

std::string zooMarkdown(const ModelZoo& zoo) {
    std::vector<MarkdownColumn> header;
    for (const ZooColumnInfo& info : zooColumns()) {
        header.push_back({std::string(info.label), info.numeric});
    }
    std::string out = markdownHeader(header);
    std::string notCounted;
    for (const ZooRow& row : zoo.rows) {
        if (!row.counted()) {
            notCounted += markdownRow({row.id, std::string(toString(row.origin)), row.reason});
            continue;
        }
        std::vector<std::string> cells;
        for (const ZooColumnInfo& info : zooColumns()) {
            cells.push_back(info.column == ZooColumn::Source ? "`" + row.id + "`" : zooText(row, info.column));
        }
        out += markdownRow(cells);
    }
    if (!notCounted.empty()) {
        out += "\nNot counted:\n\n" + markdownHeader({{"Source"}, {"Origin"}, {"Reason"}}) + notCounted;
    }
    return out;
}

nlohmann::json zooJson(const ModelZoo& zoo) {
    using nlohmann::json;
    json models = json::array();
    for (const ZooRow& row : zoo.rows) {
        json model = json::object();
        for (const ZooColumnInfo& info : zooColumns()) {
            const std::string key(info.key);
            if (info.column == ZooColumn::Fits || info.column == ZooColumn::MatchesPublished) {
                const std::string text = zooText(row, info.column); // "yes", "no", or empty: no value
                model[key] = text.empty() ? json(nullptr) : json(text == "yes");
            } else if (!info.numeric) {
                const std::string text = zooText(row, info.column);
                model[key] = text.empty() ? json(nullptr) : json(text);
            } else if (const std::optional<double> value = zooNumber(row, info.column);
                       !value || zooExactText(row, info.column) == kBeyondText) {
                model[key] = nullptr; // no value, or one beyond 2^64 - 1, which is not a size
            } else if (const std::optional<std::uint64_t> whole = wholeNumber(zooExactText(row, info.column))) {
                model[key] = *whole;
            } else {
                model[key] = *value;
            }
        }
        model["encoder_layers"] = row.counted() ? json(row.encoderLayers) : json(nullptr);
        model["decoder_layers"] = row.counted() ? json(row.decoderLayers) : json(nullptr);
        models.push_back(std::move(model));
    }
    return {{"scenario", scenarioJson(zoo.scenario)}, {"models", models}};
}

} // namespace archplay::core

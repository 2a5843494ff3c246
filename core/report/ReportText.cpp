// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ReportText.h"

#include "core/io/Session.h"
#include "core/report/Costs.h"
#include "core/report/LatexTables.h"
#include "core/report/ReportJson.h"
#include "core/util/Checked.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <numeric>

namespace archplay::core {
namespace {

std::string yesNo(bool value) {
    return value ? "yes" : "no";
}

std::string number(std::int64_t value) {
    return withThousands(value > 0 ? static_cast<std::uint64_t>(value) : 0);
}

std::string layerRange(std::int64_t first, std::int64_t count) {
    return count == 1 ? std::to_string(first) : fmt::format("{}-{}", first, first + count - 1);
}

std::string attentionBiases(const ModelConfig& config) {
    std::string biases;
    for (const auto& [on, name] : {std::pair{config.qBias, "q"}, std::pair{config.kBias, "k"},
                                   std::pair{config.vBias, "v"}, std::pair{config.oBias, "o"}}) {
        if (on) {
            biases += biases.empty() ? name : std::string(", ") + name;
        }
    }
    return biases.empty() ? "none" : biases;
}

std::string slidingDescription(const ModelConfig& config) {
    switch (config.slidingPattern) {
    case SlidingPattern::None:
        return "none";
    case SlidingPattern::All:
        return fmt::format("every layer, window {}", number(config.slidingWindow));
    case SlidingPattern::GlobalEveryN:
        return fmt::format("window {}, every {}th layer global", number(config.slidingWindow), config.globalEvery);
    case SlidingPattern::FromLayer:
        return fmt::format("window {} from layer {}", number(config.slidingWindow), config.firstSlidingLayer);
    case SlidingPattern::Explicit:
        return fmt::format("window {} on the layers listed in layer_types", number(config.slidingWindow));
    }
    return {};
}

/// The derivation's Markdown under a report's "## Forward pass": its own title dropped (the report
/// section names it) and its section headings one level down.
std::string nestedDerivation(const std::string& markdown) {
    std::string out;
    std::size_t start = 0;
    bool first = true;
    bool inMaths = false;
    while (start < markdown.size()) {
        std::size_t end = markdown.find('\n', start);
        if (end == std::string::npos) {
            end = markdown.size();
        }
        const std::string line = markdown.substr(start, end - start);
        start = end + 1;
        if (line == "$$") {
            inMaths = !inMaths;
        }
        if (first && line.starts_with("# ")) {
            first = false;
            continue;
        }
        first = false;
        out += (!inMaths && line.starts_with("#") ? "#" + line : line) + "\n";
    }
    while (!out.empty() && out.front() == '\n') {
        out.erase(out.begin());
    }
    return out;
}

} // namespace

std::vector<ConfigRow> configRows(const ModelConfig& config) {
    std::vector<ConfigRow> rows;
    auto add = [&](std::string key, std::string label, std::string value) {
        rows.push_back({std::move(key), std::move(label), std::move(value)});
    };
    add("model_type", "Model type", config.modelType);
    add("architecture", "Architecture", std::string(toString(config.architecture)));
    add("vocab_size", "Vocabulary", number(config.vocabSize));
    add("hidden_size", "Hidden size", number(config.hiddenSize));
    if (config.architecture == ArchitectureKind::EncoderDecoder) {
        add("num_encoder_layers", "Encoder layers", number(config.numEncoderLayers));
        add("num_decoder_layers", "Decoder layers", number(config.numLayers));
    } else {
        add("num_hidden_layers", "Layers", number(config.numLayers));
    }
    add("num_attention_heads", "Attention heads", number(config.numHeads));
    if (!config.latent) {
        add("num_key_value_heads", "KV heads", number(config.numKvHeads));
        add("head_dim", "Head dim",
            config.headDim ? number(*config.headDim) : fmt::format("{} (hidden / heads)", config.effectiveHeadDim()));
    }
    add("attention", "Attention", attentionLabel(config));
    if (config.latent) {
        const LatentAttention& latent = *config.latent;
        add("q_lora_rank", "Query LoRA rank", latent.qLoraRank ? number(*latent.qLoraRank) : "none (plain q_proj)");
        add("kv_lora_rank", "KV LoRA rank", number(latent.kvLoraRank));
        add("qk_nope_head_dim", "QK head dim (no RoPE)", number(latent.qkNopeHeadDim));
        add("qk_rope_head_dim", "QK head dim (RoPE)", number(latent.qkRopeHeadDim));
        add("v_head_dim", "V head dim", number(latent.vHeadDim));
    }
    add("attention_bias", "Attention biases", attentionBiases(config));
    if (config.qkNorm != QkNorm::None) {
        add("qk_norm", "QK norm", std::string(toString(config.qkNorm)));
    }
    if (config.slidingPattern != SlidingPattern::None) {
        add("sliding_window", "Sliding window", slidingDescription(config));
    }
    if (config.attentionChunkSize > 0) {
        add("attention_chunk_size", "Chunked attention", number(config.attentionChunkSize));
    }
    add("ffn", "Feed-forward", ffnLabel(config));
    add("hidden_act", "Activation", std::string(toString(config.activation)));
    const bool moe = config.ffnKind == FfnKind::Moe;
    if (config.hasDenseFfnLayers()) {
        add("intermediate_size", moe ? "Dense FFN width" : "FFN width", number(config.intermediateSize));
    }
    if (moe) {
        const MixtureOfExperts& experts = config.moe;
        add("num_experts", "Routed experts", number(experts.numExperts));
        add("num_experts_per_tok", "Experts per token", number(experts.topK));
        add("moe_intermediate_size", "Expert width", number(experts.expertIntermediateSize));
        if (experts.numSharedExperts > 0) {
            add("n_shared_experts", "Shared experts",
                fmt::format("{} x {}", experts.numSharedExperts, number(experts.sharedWidth())));
        }
        if (experts.firstDenseLayers > 0) {
            add("first_k_dense_replace", "Leading dense layers", number(experts.firstDenseLayers));
        }
        if (experts.sparseStep > 1) {
            add("decoder_sparse_step", "MoE every", fmt::format("{} layers", experts.sparseStep));
        }
    }
    add("ffn_bias", "FFN biases", yesNo(config.ffnBias));
    add("norm_type", "Norm", fmt::format("{}, {}", toString(config.normKind), toString(config.normPlacement)));
    std::string positions = std::string(toString(config.positional));
    if (config.positional == PositionalKind::Rope && config.rotaryFraction < 1.0) {
        positions += fmt::format(" (rotary fraction {:g})", config.rotaryFraction);
    }
    add("position_embedding_type", "Positions", positions);
    add("max_position_embeddings", "Context length", number(config.maxPositions));
    add("tie_word_embeddings", "Tied embeddings", yesNo(config.tieWordEmbeddings));
    add("output_head", "Output head", yesNo(config.outputHead));
    if (config.mtpLayers > 0) {
        add("num_nextn_predict_layers", "MTP layers (stored apart)", number(config.mtpLayers));
    }
    return rows;
}

std::vector<KvRow> kvRows(const Analysis& analysis) {
    std::vector<KvRow> rows;
    const KvCacheReport& kv = analysis.kv;
    std::size_t position = 0;
    for (const LayerRun& run : analysis.plan.runs()) {
        const std::size_t first = position;
        position += static_cast<std::size_t>(run.count);
        if (run.kind.stack != Stack::Decoder || first >= kv.layers.size()) {
            continue;
        }
        const KvLayerCache& cache = kv.layers[first];
        KvRow row;
        row.layers = layerRange(run.first, run.count);
        row.kind = layerKindName(analysis.config, run.kind);
        row.layerCount = static_cast<std::uint64_t>(run.count);
        row.elementsPerToken = cache.selfElementsPerToken;
        row.cachedTokens = cache.cachedTokens;
        row.crossElementsPerToken = cache.crossElementsPerToken;
        row.bytesPerLayer = cache.bytes;
        row.bytes = (Checked(cache.bytes) * Checked(row.layerCount)).value();
        rows.push_back(std::move(row));
    }
    return rows;
}

namespace {

/// One headline figure of the KV cache: its key, its label and its exact value. Units: bytes.
struct KvHeadline {
    std::string key;
    std::string label;
    std::uint64_t bytes = 0;
};

std::vector<KvHeadline> kvHeadlines(const Analysis& analysis) {
    const KvCacheReport& kv = analysis.kv;
    std::vector<KvHeadline> figures;
    figures.push_back({"bytes_per_token", fmt::format("Per token ({})", toString(kv.dtype)), kv.bytesPerToken});
    const bool latent = analysis.config.latent && !kv.latentExpanded;
    if (latent) {
        figures.push_back(
            {"expanded_bytes_per_token", "Per token if MLA cached per-head K and V", kv.expandedBytesPerToken});
    }
    if (kv.crossBytesPerEncoderToken > 0) {
        figures.push_back(
            {"cross_bytes_per_encoder_token", "Cross-attention per encoder token", kv.crossBytesPerEncoderToken});
    }
    figures.push_back({"total_bytes",
                       fmt::format("Whole cache ({} tokens x batch {})", withThousands(kv.sequenceLength), kv.batch),
                       kv.totalBytes});
    if (latent) {
        figures.push_back(
            {"expanded_total_bytes", "Whole cache if MLA cached per-head K and V", kv.expandedTotalBytes});
    }
    return figures;
}

} // namespace

std::vector<SummaryRow> kvFigures(const Analysis& analysis) {
    std::vector<SummaryRow> rows;
    const std::string allocator(allocatorLabel(analysis.kv.allocator));
    rows.push_back(
        {"allocator", "Cache as", allocator, allocator, std::string(allocatorSource(analysis.kv.allocator))});
    for (KvHeadline& figure : kvHeadlines(analysis)) {
        rows.push_back({std::move(figure.key), std::move(figure.label), binaryBytes(figure.bytes),
                        withThousands(figure.bytes) + " bytes"});
    }
    return rows;
}

std::string kvCsv(const Analysis& analysis) {
    std::string out = "row,layers,kind,layer_count,elements_per_token,cached_tokens,cross_elements_per_token,"
                      "bytes_per_layer,bytes\n";
    out += fmt::format("allocator,{},,,,,,,\n", toString(analysis.kv.allocator));
    for (const KvHeadline& figure : kvHeadlines(analysis)) {
        out += fmt::format("{},,,,,,,,{}\n", figure.key, figure.bytes);
    }
    for (const KvRow& row : kvRows(analysis)) {
        out += fmt::format("layers,{},{},{},{},{},{},{},{}\n", csvField(row.layers), csvField(row.kind), row.layerCount,
                           row.elementsPerToken, row.cachedTokens, row.crossElementsPerToken, row.bytesPerLayer,
                           row.bytes);
    }
    return out;
}

std::string kvMarkdown(const Analysis& analysis) {
    std::string out = summaryMarkdown(kvFigures(analysis));
    out += "\n" + markdownHeader({{"Layers"},
                                  {"Kind"},
                                  {"Elements per token", true},
                                  {"Cached tokens", true},
                                  {"Bytes per layer", true},
                                  {"Bytes", true}});
    for (const KvRow& row : kvRows(analysis)) {
        out += markdownRow({row.layers, row.kind, withThousands(row.elementsPerToken), withThousands(row.cachedTokens),
                            withThousands(row.bytesPerLayer), withThousands(row.bytes)});
    }
    return out;
}

SummaryContext summaryContext(const ReportInfo& info) {
    SummaryContext context;
    if (info.preset && !info.modified) {
        context.publishedParams = info.preset->publishedParams;
        context.publishedActive = info.preset->publishedActive;
    }
    if (info.modified) {
        context.modifiedFrom = info.title;
    }
    return context;
}

nlohmann::json summaryJson(const Analysis& analysis, const SummaryContext& context) {
    using nlohmann::json;
    const ModelConfig& config = analysis.config;
    json rows = json::array();
    for (const SummaryRow& row : summaryRows(analysis, context)) {
        rows.push_back({{"key", row.key},
                        {"label", row.label},
                        {"value", row.value},
                        {"exact", row.exact},
                        {"detail", row.detail}});
    }
    json out = {{"total_params", analysis.params.total},
                {"active_params", analysis.params.active},
                {"layers", config.numLayers},
                {"head_dim", config.queryKeyHeadDim()},
                {"attention", attentionLabel(config)},
                {"ffn", ffnLabel(config)},
                {"kv_bytes_per_token", analysis.kv.bytesPerToken},
                {"kv_total_bytes", figureJson(analysis.kv.totalBytes)},
                {"kv_overflow", analysis.kv.overflow},
                {"weight_bytes", analysis.weightBytes},
                {"scenario", scenarioJson(analysis.scenario)},
                {"gpu_fit", deviceFitJson(analysis)},
                {"rows", rows}};
    if (config.architecture == ArchitectureKind::EncoderDecoder) {
        out["encoder_layers"] = config.numEncoderLayers;
    }
    return out;
}

nlohmann::json reportJson(const Analysis& analysis, const ReportInfo& info) {
    using nlohmann::json;
    json config = json::object();
    for (const ConfigRow& row : configRows(analysis.config)) {
        config[row.key] = row.value;
    }
    json out = {{"title", info.title},
                {"origin", info.origin},
                {"date", info.date},
                {"modified", info.modified},
                {"config", config},
                {"summary", summaryJson(analysis, summaryContext(info))},
                {"params", paramsJson(analysis.params)},
                {"kv", kvJson(analysis)},
                {"diagnostics", diagnosticsJson(analysis.diagnostics)},
                {"convention", countingConvention()}};
    if (info.preset) {
        out["preset"] = presetJson(*info.preset);
    }
    return out;
}

std::string scenarioLine(const Analysis& analysis) {
    const Scenario& scenario = analysis.scenario;
    std::string line =
        fmt::format("{} tokens, batch {}, weights {}, KV cache {}, on {}", withThousands(scenario.sequenceLength),
                    withThousands(scenario.batch), formatInfo(scenario.weightFormat).id, toString(scenario.kvDType),
                    devicesLabel(scenario));
    if (analysis.config.architecture == ArchitectureKind::EncoderDecoder) {
        line += fmt::format(", {} encoder tokens", withThousands(scenario.encoderSequenceLength));
    }
    return line;
}

std::string figureCaption(const Analysis& analysis, const ReportInfo& info) {
    const std::string title = info.title.empty() ? "Untitled" : info.title;
    return fmt::format("{}{} \u00b7 {}", title, info.modified ? " (modified)" : "", scenarioLine(analysis));
}

std::string countingConvention() {
    return "Parameters are unique trainable parameters, the number model.num_parameters() reports in Hugging Face "
           "transformers: tied weights count once and buffers (rotary inv_freq, causal masks, correction biases) are "
           "excluded. Tensors a checkpoint stores apart, such as DeepSeek-V3's multi-token-prediction module, are "
           "reported separately and never added to the total. Active parameters are what one token uses: the total "
           "minus the routed experts it is not sent to; the router and shared experts stay active. The KV cache is "
           "the architecture's own: 2 x kv_heads x head_dim elements per layer per token, at most the window on "
           "sliding layers, kv_lora_rank + qk_rope_head_dim per layer for latent attention (MLA), plus "
           "cross-attention keys and values for the encoder tokens of encoder-decoder models, times the bytes of "
           "the cache precision, the sequence length and the batch. Every byte size is binary: KiB, MiB and GiB are "
           "powers of 1024, device memory included (80 GiB = 85,899,345,920 bytes).";
}

std::vector<std::string> sourceLines(const ReportInfo& info) {
    std::vector<std::string> lines;
    if (info.preset) {
        const PresetInfo& preset = *info.preset;
        lines.push_back(fmt::format("Preset: {} ({}, family {}).", preset.name, preset.id, preset.family));
        if (!preset.source.empty()) {
            lines.push_back(fmt::format("Source: {}.", preset.source));
        }
        if (preset.publishedParams) {
            std::string published =
                fmt::format("Published parameter count: {}", withThousands(*preset.publishedParams));
            if (!preset.paramsSource.empty()) {
                published += fmt::format(" ({})", preset.paramsSource);
            }
            lines.push_back(published + ".");
        }
        if (!preset.notes.empty()) {
            lines.push_back(preset.notes);
        }
    }
    if (!info.origin.empty()) {
        lines.push_back(fmt::format("Loaded from {}{}.", info.origin, info.modified ? ", then edited" : ""));
    }
    return lines;
}

std::string layerName(const ModelPlan& plan, std::int64_t position) {
    if (position < 0 || static_cast<std::size_t>(position) >= plan.layers.size()) {
        return {};
    }
    const LayerPlan& layer = plan.layers[static_cast<std::size_t>(position)];
    const bool twoStacks = !plan.layers.empty() && plan.layers.front().stack != plan.layers.back().stack;
    if (!twoStacks) {
        return fmt::format("Layer {}", layer.index);
    }
    return fmt::format("{} layer {}", layer.stack == Stack::Encoder ? "Encoder" : "Decoder", layer.index);
}

std::vector<ReportSection> reportSections(const Analysis& analysis, std::int64_t layer, bool zoo) {
    std::vector<ReportSection> sections;
    const ModelConfig& config = analysis.config;
    const bool moe = config.ffnKind == FfnKind::Moe;
    sections.push_back({ReportPart::Configuration, "Configuration", {}, {}});
    sections.push_back({ReportPart::Summary, "Summary", {}, {}});
    sections.push_back({ReportPart::Breakdown, "Parameter breakdown", ViewKind::ParameterChart,
                        moe ? "Parameters by component and by layer kind; the faded part of a bar is the routed "
                              "experts a token skips."
                            : "Parameters by component and by layer kind."});
    sections.push_back({ReportPart::LayerStack, "Layer stack", ViewKind::LayerStack,
                        "Every layer of the stack, coloured by its attention and feed-forward kind."});
    const std::string name = layerName(analysis.plan, layer);
    if (!name.empty()) {
        const LayerPlan& planned = analysis.plan.layers[static_cast<std::size_t>(layer)];
        sections.push_back(
            {ReportPart::Layer, fmt::format("Inside {} ({})", name, layerKindName(analysis.config, planned)),
             ViewKind::LayerWeights,
             fmt::format("The weights of {} drawn to one scale: area is proportional to parameters, rows by "
                         "columns are d_in by d_out.",
                         name)});
    }
    sections.push_back({ReportPart::AttentionMask, "Attention masks", ViewKind::AttentionMask,
                        "Which keys each query attends to, query rows by key columns, for every mask the model uses."});
    if (config.hasDecoder()) {
        sections.push_back({ReportPart::KvCache, "KV cache", ViewKind::KvCache,
                            "The KV cache by layer kind, against sequence length and against device memory."});
    }
    if (moe) {
        sections.push_back({ReportPart::MoeRouting, "MoE routing", ViewKind::MoeRouting,
                            "Router scores over the experts for a sample sentence, top-k lit and shared experts "
                            "always on. The scores are an illustrative, deterministic simulation, not a trained "
                            "router."});
    }
    sections.push_back({ReportPart::Compute, "Compute", ViewKind::Compute,
                        "FLOPs per token by component and by layer kind, and against the position in the context: "
                        "the weights cost the same at every position, attention grows with the keys it sees."});
    sections.push_back({ReportPart::Memory, "Memory", ViewKind::Memory,
                        "One GPU's memory when serving and when training, part by part, against the device's."});
    sections.push_back(
        {ReportPart::Speed, "Speed", ViewKind::Speed,
         fmt::format("Decode throughput against batch and the roofline of the device; {}.", speedBoundLabel())});
    if (zoo) {
        sections.push_back({ReportPart::Zoo, "Among published models", {}, {}, zooPlots()});
    }
    sections.push_back({ReportPart::DiagnosticList, "Diagnostics", {}, {}});
    sections.push_back({ReportPart::Derivation, "Forward pass", {}, {}});
    sections.push_back({ReportPart::CostExplanation, "What it costs, explained", {}, {}});
    sections.push_back({ReportPart::Source, "Source and counting convention", {}, {}});
    return sections;
}

ZooPlotData zooReportPlot(const ModelZoo& zoo, const Analysis& analysis, ZooPlot plot) {
    std::vector<std::size_t> every(zoo.rows.size());
    std::iota(every.begin(), every.end(), std::size_t{0});
    return zooPlotData(zoo.rows, every, plot, designZooRow(analysis, "this design"), todayInYears());
}

std::string zooReportIntro(const ModelZoo& zoo) {
    std::size_t presets = 0;
    std::size_t added = 0;
    std::size_t counted = 0;
    for (const ZooRow& row : zoo.rows) {
        (row.origin == ZooOrigin::Preset ? presets : added) += 1;
        counted += row.counted() ? 1 : 0;
    }
    std::string sources = fmt::format("{} built-in preset{}", presets, presets == 1 ? "" : "s");
    if (added > 0) {
        sources += fmt::format(" and {} added config{}", added, added == 1 ? "" : "s");
    }
    return fmt::format("The zoo holds {} models ({}), {} of them counted, each in the scenario above. The table lists "
                       "this design and its eight nearest models by total parameters; each plot marks this design as a "
                       "circled cross.",
                       zoo.rows.size(), sources, counted);
}

std::vector<ZooRow> zooReportRows(const ModelZoo& zoo, const Analysis& analysis) {
    const ZooRow design = designZooRow(analysis, "this design");
    std::vector<ZooRow> rows{design};
    for (std::size_t index : zooNeighbours(zoo.rows, design, 8)) {
        rows.push_back(zoo.rows[index]);
    }
    return rows;
}

std::string reportMarkdown(const Analysis& analysis, const ReportInfo& info, std::int64_t layer,
                           const std::vector<ReportFigure>& figures, const ModelZoo* zoo) {
    std::map<std::variant<ViewKind, ZooPlot>, std::string> figurePaths;
    for (const ReportFigure& figure : figures) {
        figurePaths[figure.figure] = figure.path;
    }
    std::string out = fmt::format("# {}\n\n", info.title);
    out += fmt::format("archplay report, {}", info.date);
    if (!info.origin.empty()) {
        out += fmt::format(", {}{}", info.origin, info.modified ? " (modified)" : "");
    }
    // Two paragraphs, not a hard line break: trailing spaces do not survive editors.
    out += fmt::format(".\n\nScenario: {}.\n", scenarioLine(analysis));

    for (const ReportSection& section : reportSections(analysis, layer, zoo != nullptr)) {
        out += fmt::format("\n## {}\n\n", section.title);
        if (auto found = section.figure ? figurePaths.find(*section.figure) : figurePaths.end();
            found != figurePaths.end()) {
            out += fmt::format("![{}]({})\n\n*{}*\n\n", section.title, found->second, section.caption);
        }
        switch (section.part) {
        case ReportPart::Configuration:
            out += markdownHeader({{"Field"}, {"Value"}});
            for (const ConfigRow& row : configRows(analysis.config)) {
                out += markdownRow({row.label, row.value});
            }
            break;
        case ReportPart::Summary:
            out += summaryMarkdown(summaryRows(analysis, summaryContext(info)));
            break;
        case ReportPart::Breakdown:
            out += breakdownMarkdown(analysis.params);
            break;
        case ReportPart::KvCache:
            out += kvMarkdown(analysis);
            break;
        case ReportPart::DiagnosticList:
            if (analysis.diagnostics.empty()) {
                out += "No errors, warnings or hints.\n";
            }
            for (const Diagnostic& d : analysis.diagnostics) {
                out += fmt::format("- **{}**{}: {}\n", toString(d.severity),
                                   d.field.empty() ? "" : " `" + d.field + "`", d.message);
            }
            break;
        case ReportPart::Derivation:
            out += nestedDerivation(toMarkdown(deriveForwardPass(analysis.config, analysis.plan))) + "\n";
            break;
        case ReportPart::Compute:
            out += summaryMarkdown(computeRows(analysis));
            break;
        case ReportPart::Memory:
            out += "### Serving\n\n" + summaryMarkdown(servingMemoryRows(analysis)) + "\n### Training\n\n" +
                   summaryMarkdown(trainingMemoryRows(analysis));
            break;
        case ReportPart::Speed:
            out += summaryMarkdown(speedRows(analysis));
            break;
        case ReportPart::Zoo: {
            out += zooReportIntro(*zoo) + "\n\n";
            std::vector<MarkdownColumn> columns;
            for (ZooColumn column : zooNeighbourColumns()) {
                columns.push_back({std::string(zooColumnInfo(column).label), zooColumnInfo(column).numeric});
            }
            out += markdownHeader(columns);
            for (const ZooRow& row : zooReportRows(*zoo, analysis)) {
                std::vector<std::string> cells;
                for (ZooColumn column : zooNeighbourColumns()) {
                    cells.push_back(zooText(row, column));
                }
                out += markdownRow(cells);
            }
            for (ZooPlot plot : section.zooPlots) {
                if (auto found = figurePaths.find(plot); found != figurePaths.end()) {
                    out += fmt::format("\n![{}]({})\n\n*{}*\n", zooPlotInfo(plot).title, found->second,
                                       zooPlotCaption(plot));
                }
            }
            break;
        }
        case ReportPart::CostExplanation:
            out += nestedDerivation(toMarkdown(explainCosts(analysis))) + "\n";
            break;
        case ReportPart::Source:
            for (const std::string& line : sourceLines(info)) {
                out += line + "\n\n";
            }
            out += countingConvention() + "\n";
            break;
        case ReportPart::LayerStack:
        case ReportPart::Layer:
        case ReportPart::AttentionMask:
        case ReportPart::MoeRouting:
            break;
        }
    }
    return out;
}

std::string derivationLatexDocument(const Derivation& derivation) {
    return latexDocument(derivation.title + ", written by archplay. Compile with pdflatex, lualatex or xelatex.",
                         toLatex(derivation));
}

} // namespace archplay::core

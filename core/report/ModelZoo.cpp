// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/ModelZoo.h"

#include "core/io/Presets.h"
#include "core/io/Session.h"
#include "core/report/Tables.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

namespace archplay::core {
namespace {

std::string published(const ZooRow& row, bool separated) {
    if (!row.publishedParams) {
        return {};
    }
    return separated ? withThousands(*row.publishedParams) : std::to_string(*row.publishedParams);
}

/// "yes", "no", or empty when nothing is published to compare with.
std::string matchText(const ZooRow& row) {
    return row.publishedParams ? (row.matchesPublished ? "yes" : "no") : "";
}

} // namespace

std::string ZooRow::layersLabel() const {
    if (encoderLayers > 0 && decoderLayers > 0) {
        return fmt::format("{} + {}", encoderLayers, decoderLayers);
    }
    return std::to_string(encoderLayers > 0 ? encoderLayers : decoderLayers);
}

ModelZoo modelZoo(const Scenario& scenario) {
    ModelZoo zoo;
    zoo.scenario = scenario;
    for (const Preset& preset : builtinPresets()) {
        const std::optional<ModelConfig> config = presetConfig(preset);
        if (!config) {
            zoo.diagnostics.push_back({Severity::Error, "", preset.info.id + ": the preset does not import"});
            continue;
        }
        const Analysis analysis = analyze(*config, scenario);
        if (!analysis.valid) {
            for (const Diagnostic& d : analysis.diagnostics) {
                if (d.severity == Severity::Error) {
                    zoo.diagnostics.push_back({Severity::Error, d.field, preset.info.id + ": " + d.message});
                }
            }
            continue;
        }
        ZooRow row;
        row.id = preset.info.id;
        row.name = preset.info.name;
        row.family = preset.info.family;
        row.totalParams = analysis.params.total;
        row.activeParams = analysis.params.active;
        row.publishedParams = preset.info.publishedParams;
        row.matchesPublished = row.publishedParams == row.totalParams;
        switch (config->architecture) {
        case ArchitectureKind::DecoderOnly:
            row.decoderLayers = config->numLayers;
            break;
        case ArchitectureKind::EncoderOnly:
            row.encoderLayers = config->numLayers;
            break;
        case ArchitectureKind::EncoderDecoder:
            row.encoderLayers = config->numEncoderLayers;
            row.decoderLayers = config->numLayers;
            break;
        }
        row.attention = attentionLabel(*config);
        row.ffn = ffnKindLabel(*config);
        row.kvBytesPerToken = analysis.kv.bytesPerToken;
        row.kvTotalBytes = analysis.kv.totalBytes;
        row.weightBytes = analysis.weightBytes;
        row.fits = analysis.devices.fits;
        row.fit = fitVerdict(analysis.devices);
        zoo.rows.push_back(std::move(row));
    }
    std::sort(zoo.rows.begin(), zoo.rows.end(), [](const ZooRow& a, const ZooRow& b) {
        return std::tie(a.totalParams, a.id) < std::tie(b.totalParams, b.id);
    });
    return zoo;
}

std::string zooCsv(const ModelZoo& zoo) {
    std::string out = "id,name,family,total_params,active_params,published_params,matches_published,layers,"
                      "attention,ffn,kv_bytes_per_token,kv_total_bytes,weight_bytes,fits,gpu_fit\n";
    for (const ZooRow& row : zoo.rows) {
        out +=
            fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csvField(row.id), csvField(row.name),
                        csvField(row.family), row.totalParams, row.activeParams, published(row, false), matchText(row),
                        csvField(row.layersLabel()), csvField(row.attention), csvField(row.ffn), row.kvBytesPerToken,
                        row.kvTotalBytes, row.weightBytes, row.fits ? "yes" : "no", csvField(row.fit));
    }
    return out;
}

std::string zooMarkdown(const ModelZoo& zoo) {
    const Scenario& s = zoo.scenario;
    std::string out =
        markdownHeader({{"Model"},
                        {"Id"},
                        {"Family"},
                        {"Total", true},
                        {"Active", true},
                        {"Published", true},
                        {"Match"},
                        {"Layers", true},
                        {"Attention"},
                        {"FFN"},
                        {fmt::format("KV per token ({})", toString(s.kvDType)), true},
                        {fmt::format("KV ({} tokens x {})", withThousands(s.sequenceLength), s.batch), true},
                        {fmt::format("Weights ({})", formatInfo(s.weightFormat).id), true},
                        {devicesLabel(s)}});
    for (const ZooRow& row : zoo.rows) {
        out += markdownRow({row.name, "`" + row.id + "`", row.family, withThousands(row.totalParams),
                            withThousands(row.activeParams), published(row, true), matchText(row), row.layersLabel(),
                            row.attention, row.ffn, binaryBytes(row.kvBytesPerToken), binaryBytes(row.kvTotalBytes),
                            binaryBytes(row.weightBytes), row.fit});
    }
    return out;
}

nlohmann::json zooJson(const ModelZoo& zoo) {
    using nlohmann::json;
    const Scenario& s = zoo.scenario;
    json models = json::array();
    for (const ZooRow& row : zoo.rows) {
        models.push_back({{"id", row.id},
                          {"name", row.name},
                          {"family", row.family},
                          {"total_params", row.totalParams},
                          {"active_params", row.activeParams},
                          {"published_params", row.publishedParams ? json(*row.publishedParams) : json(nullptr)},
                          {"matches_published", row.publishedParams ? json(row.matchesPublished) : json(nullptr)},
                          {"encoder_layers", row.encoderLayers},
                          {"decoder_layers", row.decoderLayers},
                          {"attention", row.attention},
                          {"ffn", row.ffn},
                          {"kv_bytes_per_token", row.kvBytesPerToken},
                          {"kv_total_bytes", row.kvTotalBytes},
                          {"weight_bytes", row.weightBytes},
                          {"fits", row.fits},
                          {"gpu_fit", row.fit}});
    }
    return {{"scenario", scenarioJson(s)}, {"models", models}};
}

} // namespace archplay::core

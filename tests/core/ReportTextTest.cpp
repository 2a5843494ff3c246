// SPDX-License-Identifier: GPL-3.0-or-later
// The report's text parts (configuration, KV runs, JSON, Markdown, LaTeX) and the export matrix.
#include "core/report/ReportText.h"

#include "core/derivation/Derivation.h"
#include "core/report/Exports.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

std::map<std::string, std::string> configMap(const std::string& id) {
    std::map<std::string, std::string> values;
    for (const core::ConfigRow& row : core::configRows(preset(id))) {
        EXPECT_FALSE(values.contains(row.key)) << id << " repeats " << row.key;
        values[row.key] = row.value;
    }
    return values;
}

/// Checks that a preset's configuration table shows `shown` and leaves out the rows `absent`.
void expectConfigRows(const std::string& id, const std::map<std::string, std::string>& shown,
                      const std::vector<std::string>& absent = {}) {
    const auto rows = configMap(id);
    for (const auto& [key, value] : shown) {
        ASSERT_TRUE(rows.contains(key)) << id << " has no row " << key;
        EXPECT_EQ(rows.at(key), value) << id << ": " << key;
    }
    for (const std::string& key : absent) {
        EXPECT_FALSE(rows.contains(key)) << id << " shows " << key;
    }
}

/// Code points above U+007F in UTF-8 text.
std::set<char32_t> nonAscii(const std::string& text) {
    std::set<char32_t> found;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            ++i;
            continue;
        }
        const int length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
        char32_t code = byte & (0x3f >> (length - 1));
        for (int k = 1; k < length && i + std::size_t(k) < text.size(); ++k) {
            code = (code << 6) | (static_cast<unsigned char>(text[i + std::size_t(k)]) & 0x3f);
        }
        found.insert(code);
        i += std::size_t(length);
    }
    return found;
}

TEST(ReportText, ConfigRowsNameTheFieldsAPaperStates) {
    expectConfigRows("llama-3-8b",
                     {{"hidden_size", "4,096"},
                      {"num_key_value_heads", "8"},
                      {"attention", "GQA 8/32"},
                      {"intermediate_size", "14,336"},
                      {"vocab_size", "128,256"}},
                     {"num_experts", "kv_lora_rank"});
    // MLA has no KV heads to report.
    expectConfigRows("deepseek-v3",
                     {{"kv_lora_rank", "512"},
                      {"num_experts", "256"},
                      {"num_experts_per_tok", "8"},
                      {"first_k_dense_replace", "3"},
                      {"n_shared_experts", "1 x 2,048"}},
                     {"num_key_value_heads"});
    expectConfigRows("t5-small", {{"num_encoder_layers", "6"}, {"num_decoder_layers", "6"}});

    const auto gemma = configMap("gemma-3-1b");
    EXPECT_NE(gemma.at("sliding_window").find("512"), std::string::npos) << gemma.at("sliding_window");
}

TEST(ReportText, KvRowsAddUpToTheCacheAndCapSlidingLayers) {
    for (const char* id : {"llama-3-8b", "gemma-3-1b", "deepseek-v3", "t5-small", "mistral-7b-v0.1"}) {
        const core::Analysis analysis = analyzePreset(id, scenarioAt(32768, 2));
        std::uint64_t bytes = 0;
        std::uint64_t layers = 0;
        for (const core::KvRow& row : core::kvRows(analysis)) {
            bytes += row.bytes;
            layers += row.layerCount;
            EXPECT_LE(row.cachedTokens, 32768u) << id;
        }
        EXPECT_EQ(bytes, analysis.kv.totalBytes) << id;
        EXPECT_EQ(layers, static_cast<std::uint64_t>(analysis.config.numLayers)) << id;
    }
    const core::Analysis gemma = analyzePreset("gemma-3-1b", scenarioAt(32768));
    const auto rows = core::kvRows(gemma);
    EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](const core::KvRow& row) { return row.cachedTokens == 512; }));
    EXPECT_TRUE(
        std::any_of(rows.begin(), rows.end(), [](const core::KvRow& row) { return row.cachedTokens == 32768; }));
    EXPECT_TRUE(core::kvRows(analyzePreset("bert-base-uncased")).empty());
}

TEST(ReportText, KvTablesCarryTheExactBytes) {
    const core::Analysis analysis = analyzePreset("llama-3-8b", scenarioAt(8192, 4, core::DType::FP8));
    const std::string csv = core::kvCsv(analysis);
    EXPECT_NE(csv.find("\ntotal_bytes,,,,,,,,2147483648\n"), std::string::npos) << csv; // 65,536 x 8,192 x 4
    EXPECT_NE(csv.find("\nlayers,0-31,global · gated,32,2048,8192,0,67108864,2147483648\n"), std::string::npos) << csv;
    const std::string md = core::kvMarkdown(analysis);
    EXPECT_NE(md.find("| 0-31 | global · gated | 2,048 | 8,192 | 67,108,864 | 2,147,483,648 |"), std::string::npos)
        << md;
    const std::string mla = core::kvMarkdown(analyzePreset("deepseek-v3", scenarioAt(1000)));
    EXPECT_NE(mla.find("| Whole cache if MLA cached per-head K and V | 4.65 GiB | 4,997,120,000 bytes |"),
              std::string::npos)
        << mla;
    // Every table says whose cache it is.
    EXPECT_NE(md.find("| Cache as | the architecture's own cache |"), std::string::npos) << md;
    EXPECT_NE(csv.find("\nallocator,architecture,"), std::string::npos) << csv;
    core::Scenario transformers = scenarioAt(1000);
    transformers.kvAllocator = core::KvAllocator::Transformers;
    const std::string held = core::kvMarkdown(analyzePreset("deepseek-v3", transformers));
    EXPECT_NE(held.find("| Cache as | what transformers 5.17 allocates |"), std::string::npos) << held;
}

TEST(ReportText, SummaryJsonHasExactNumbers) {
    const nlohmann::json json = core::summaryJson(analyzePreset("mixtral-8x7b-v0.1"));
    EXPECT_EQ(json["total_params"], 46'702'792'704u);
    EXPECT_EQ(json["active_params"], 12'879'925'248u);
    EXPECT_EQ(json["kv_bytes_per_token"], 131'072u);
    EXPECT_EQ(json["scenario"]["sequence_length"], 4096u);
    EXPECT_EQ(json["rows"][0]["exact"], "46,702,792,704");
    EXPECT_EQ(json["head_dim"], 128);
    // Latent attention: the query/key head of qk_nope 128 + qk_rope 64, not 7168 / 128 heads.
    EXPECT_EQ(core::summaryJson(analyzePreset("deepseek-v3"))["head_dim"], 192);
}

TEST(ReportText, ReportJsonHoldsEverySection) {
    const nlohmann::json json = core::reportJson(analyzePreset("deepseek-v3"), presetReportInfo("deepseek-v3"));
    for (const char* key :
         {"title", "origin", "date", "config", "summary", "params", "kv", "diagnostics", "convention", "preset"}) {
        EXPECT_TRUE(json.contains(key)) << key;
    }
    EXPECT_EQ(json["params"]["total"], 671'026'404'352u);
    EXPECT_EQ(json["config"]["kv_lora_rank"], "512");
    EXPECT_EQ(json["preset"]["id"], "deepseek-v3");
}

TEST(ReportText, SectionsFollowTheArchitecture) {
    auto parts = [](const std::string& id) {
        const core::Analysis analysis = analyzePreset(id);
        std::vector<core::ReportPart> found;
        for (const core::ReportSection& section : core::reportSections(analysis, 0)) {
            found.push_back(section.part);
        }
        return found;
    };
    auto has = [](const std::vector<core::ReportPart>& found, core::ReportPart part) {
        return std::find(found.begin(), found.end(), part) != found.end();
    };
    EXPECT_TRUE(has(parts("mixtral-8x7b-v0.1"), core::ReportPart::MoeRouting));
    EXPECT_FALSE(has(parts("llama-3-8b"), core::ReportPart::MoeRouting));
    EXPECT_TRUE(has(parts("llama-3-8b"), core::ReportPart::KvCache));
    EXPECT_FALSE(has(parts("bert-base-uncased"), core::ReportPart::KvCache));
    const auto llama = parts("llama-3-8b");
    EXPECT_EQ(llama.front(), core::ReportPart::Configuration);
    EXPECT_EQ(llama.back(), core::ReportPart::Source);

    const core::Analysis t5 = analyzePreset("t5-small");
    EXPECT_EQ(core::layerName(t5.plan, 0), "Encoder layer 0");
    EXPECT_EQ(core::layerName(t5.plan, 7), "Decoder layer 1");
    EXPECT_EQ(core::layerName(t5.plan, 99), "");
    const auto sections = core::reportSections(t5, 7);
    const auto layer = std::find_if(sections.begin(), sections.end(),
                                    [](const core::ReportSection& s) { return s.part == core::ReportPart::Layer; });
    ASSERT_NE(layer, sections.end());
    EXPECT_EQ(layer->figure, core::ViewKind::LayerWeights);
    EXPECT_NE(layer->title.find("Decoder layer 1"), std::string::npos) << layer->title;
}

TEST(ReportText, MarkdownReportLinksFiguresAndCarriesTheNumbers) {
    const core::Analysis analysis = analyzePreset("mixtral-8x7b-v0.1");
    const std::string md = core::reportMarkdown(
        analysis, presetReportInfo("mixtral-8x7b-v0.1"), 0,
        {{core::ViewKind::ParameterChart, "fig/param-chart.png"}, {core::ViewKind::MoeRouting, "fig/moe-routing.png"}});
    EXPECT_EQ(md.rfind("# Mixtral 8x7B v0.1\n", 0), 0u) << md.substr(0, 80);
    for (const core::ReportSection& section : core::reportSections(analysis, 0)) {
        EXPECT_NE(md.find("\n## " + section.title + "\n"), std::string::npos) << section.title;
    }
    EXPECT_NE(md.find("![Parameter breakdown](fig/param-chart.png)"), std::string::npos);
    EXPECT_NE(md.find("![MoE routing](fig/moe-routing.png)"), std::string::npos);
    EXPECT_EQ(md.find("layer-stack.png"), std::string::npos) << "no link to a figure that was not written";
    EXPECT_NE(md.find("| Total parameters | 46.7B | 46,702,792,704 |"), std::string::npos);
    EXPECT_NE(md.find("| Model | 46,702,792,704 |  | 100.0% |"), std::string::npos);
    EXPECT_NE(md.find("$$\n"), std::string::npos) << "the derivation's display maths";
    EXPECT_EQ(md.find("\n# ", 1), std::string::npos) << "one top-level heading only";
    EXPECT_NE(md.find("\n### "), std::string::npos) << "the derivation's sections nest under Forward pass";
    EXPECT_NE(md.find("model.num_parameters()"), std::string::npos);
    EXPECT_NE(md.find("mistralai/Mixtral-8x7B-v0.1"), std::string::npos) << "the preset's source";
}

TEST(ReportText, LatexDocumentIsCompleteAndDeclaresItsCharacters) {
    std::set<char32_t> declared = {0x00B7, 0x00D7, 0x2013, 0x2014, 0x2019, 0x2026, 0x2192, 0x2248, 0x2264, 0x2265};
    for (const core::Preset& entry : core::builtinPresets()) {
        const core::Analysis analysis = analyzePreset(entry.info.id);
        const std::string tex = core::derivationLatexDocument(core::deriveForwardPass(analysis.config, analysis.plan));
        ASSERT_NE(tex.find("\\documentclass"), std::string::npos);
        EXPECT_LT(tex.find("\\begin{document}"), tex.find("\\section*"));
        EXPECT_EQ(tex.substr(tex.size() - 15), "\\end{document}\n");
        for (char32_t code : nonAscii(tex)) {
            EXPECT_TRUE(declared.contains(code)) << entry.info.id << " uses U+" << std::hex << std::uint32_t(code)
                                                 << " without a \\DeclareUnicodeCharacter";
        }
    }
}

TEST(Exports, NamesRoundTrip) {
    for (core::ExportWhat what : core::kAllExportWhats) {
        EXPECT_EQ(core::parseExportWhat(core::toString(what)), what);
    }
    for (core::ExportFormat format : core::kAllExportFormats) {
        EXPECT_EQ(core::parseExportFormat(core::toString(format)), format);
    }
    EXPECT_EQ(core::parseExportWhat("param-chart"), core::ExportWhat::Breakdown);
    EXPECT_EQ(core::parseExportFormat("LaTeX"), core::ExportFormat::Latex);
    EXPECT_EQ(core::formatFromPath("out/report.PDF"), core::ExportFormat::Pdf);
    EXPECT_EQ(core::formatFromPath("a.markdown"), core::ExportFormat::Markdown);
    EXPECT_EQ(core::formatFromPath("dir.v2/report"), std::nullopt);
    EXPECT_EQ(core::parseExportWhat("everything"), std::nullopt);
    EXPECT_EQ(core::exportWhatNames(), "report, breakdown, layer-stack, layer, attention-mask, kv-cache, moe-routing, "
                                       "derivation, summary, compute, memory or speed");
    EXPECT_EQ(core::exportFormatNames(), "pdf, png, svg, csv, md, json or tex");
}

TEST(Exports, SenselessCombinationsSayWhatWouldWork) {
    const core::Analysis llama = analyzePreset("llama-3-8b");
    EXPECT_EQ(core::unsupportedReason(core::ExportWhat::Breakdown, core::ExportFormat::Csv, llama), "");
    const std::string csvStack = core::unsupportedReason(core::ExportWhat::LayerStack, core::ExportFormat::Csv, llama);
    EXPECT_NE(csvStack.find("png, svg or pdf"), std::string::npos) << csvStack;
    EXPECT_NE(core::unsupportedReason(core::ExportWhat::MoeRouting, core::ExportFormat::Png, llama)
                  .find("mixture-of-experts"),
              std::string::npos);
    EXPECT_EQ(
        core::unsupportedReason(core::ExportWhat::MoeRouting, core::ExportFormat::Png, analyzePreset("qwen3-30b-a3b")),
        "");
    EXPECT_NE(core::unsupportedReason(core::ExportWhat::KvCache, core::ExportFormat::Json,
                                      analyzePreset("bert-base-uncased")),
              "");
    EXPECT_NE(core::unsupportedReason(core::ExportWhat::Summary, core::ExportFormat::Png, llama), "");
    EXPECT_EQ(core::unsupportedReason(core::ExportWhat::Report, core::ExportFormat::Latex, llama), "");
    EXPECT_NE(core::unsupportedReason(core::ExportWhat::Report, core::ExportFormat::Csv, llama), "");
    EXPECT_TRUE(core::needsRendering(core::ExportWhat::Report, core::ExportFormat::Markdown));
    EXPECT_FALSE(core::needsRendering(core::ExportWhat::Breakdown, core::ExportFormat::Markdown));
}

TEST(Exports, EveryTextCombinationHasTheExactNumbers) {
    const core::Analysis analysis = analyzePreset("llama-3-8b");
    const core::ReportInfo info = presetReportInfo("llama-3-8b");
    int texts = 0;
    for (core::ExportWhat what : core::kAllExportWhats) {
        for (core::ExportFormat format : core::kAllExportFormats) {
            const auto text = core::exportText(analysis, what, format, info);
            const bool expected =
                !core::needsRendering(what, format) && core::unsupportedReason(what, format, analysis).empty();
            ASSERT_EQ(text.has_value(), expected) << core::toString(what) << " " << core::toString(format);
            if (!text) {
                continue;
            }
            ++texts;
            const bool json = format == core::ExportFormat::Json;
            if (what == core::ExportWhat::Derivation) {
                const bool latex = format == core::ExportFormat::Latex;
                EXPECT_NE(text->find(latex ? "14{,}336" : "14,336"), std::string::npos) << "FFN width substituted";
            } else if (what == core::ExportWhat::KvCache) {
                const bool raw = json || format == core::ExportFormat::Csv;
                EXPECT_NE(text->find(raw ? "536870912" : "536,870,912"), std::string::npos) << *text;
            } else if (format == core::ExportFormat::Csv && what == core::ExportWhat::Breakdown) {
                EXPECT_NE(text->find("Model,8030261248,100.0000,"), std::string::npos);
            } else {
                EXPECT_NE(text->find(json ? "8030261248" : "8,030,261,248"), std::string::npos)
                    << core::toString(what) << " " << core::toString(format);
            }
            if (json) {
                EXPECT_TRUE(nlohmann::json::accept(*text)) << core::toString(what);
            }
        }
    }
    EXPECT_EQ(texts, 16);
}

TEST(Exports, ViewsThatDoNotApplySaySoFromTheModelNotItsName) {
    const core::Analysis llama = analyzePreset("llama-3-8b");
    const core::Analysis mixtral = analyzePreset("mixtral-8x7b-v0.1");
    const core::Analysis bert = analyzePreset("bert-base-uncased");
    for (core::ViewKind kind : core::kAllViewKinds) {
        EXPECT_EQ(core::inapplicableReason(kind, mixtral), "") << core::toString(kind);
        if (kind != core::ViewKind::MoeRouting) {
            EXPECT_EQ(core::inapplicableReason(kind, llama), "") << core::toString(kind);
        }
    }
    EXPECT_NE(core::inapplicableReason(core::ViewKind::MoeRouting, llama), "");
    EXPECT_NE(core::inapplicableReason(core::ViewKind::KvCache, bert), "");
    EXPECT_NE(core::inapplicableReason(core::ViewKind::MoeRouting, bert), "");
    // T5 has a decoder: its cache applies.
    EXPECT_EQ(core::inapplicableReason(core::ViewKind::KvCache, analyzePreset("t5-small")), "");
    // The same rule refuses the export.
    EXPECT_EQ(core::unsupportedReason(core::ExportWhat::KvCache, core::ExportFormat::Png, llama).empty(),
              core::inapplicableReason(core::ViewKind::KvCache, llama).empty());
}

TEST(ReportText, EveryViewKindHasAStableNameThatParsesBack) {
    std::set<std::string_view> names;
    for (core::ViewKind kind : core::kAllViewKinds) {
        const std::string_view name = core::toString(kind);
        EXPECT_FALSE(name.empty());
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_EQ(core::parseViewKind(name), kind) << name;
    }
    EXPECT_EQ(core::parseViewKind("layer-stack"), core::ViewKind::LayerStack);
    EXPECT_EQ(core::parseViewKind("overview"), core::ViewKind::Overview);
    EXPECT_EQ(core::parseViewKind("Layer-Stack"), std::nullopt);
    EXPECT_EQ(core::parseViewKind(""), std::nullopt);
}

} // namespace
} // namespace archplay::test

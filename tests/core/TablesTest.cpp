// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/Tables.h"

#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

TEST(Tables, SummaryRowsCarryTheCoreFigures) {
    const core::Analysis analysis = analyzePreset("llama-3-8b");
    const auto rows = core::summaryRows(analysis);
    auto row = [&](const std::string& key) {
        return *std::find_if(rows.begin(), rows.end(), [&](const core::SummaryRow& r) { return r.key == key; });
    };
    EXPECT_EQ(row("total_params").exact, "8,030,261,248");
    EXPECT_EQ(row("total_params").value, "8.03B");
    EXPECT_EQ(row("attention").value, "GQA 8/32");
    EXPECT_EQ(row("kv_bytes_per_token").value, "128 KiB");
    EXPECT_EQ(row("ffn").value, "SwiGLU");
    EXPECT_EQ(row("ffn").exact, "SwiGLU 14336");
    EXPECT_EQ(row("ffn").detail, "width 14,336");
    EXPECT_EQ(core::attentionLabel(preset("deepseek-v3")), "MLA 128");
    EXPECT_EQ(core::attentionDetail(preset("deepseek-v3")), "latent rank 512");
    EXPECT_EQ(core::attentionDetail(preset("gemma-3-27b")), "window 1,024, 1 global in 6");
    EXPECT_EQ(core::ffnKindLabel(preset("mixtral-8x7b-v0.1")), "MoE 2/8");
    EXPECT_EQ(core::ffnKindLabel(preset("gpt-2")), "GELU MLP");
    EXPECT_EQ(core::ffnLabel(preset("mixtral-8x7b-v0.1")), "MoE 8x14336 top-2");
    EXPECT_EQ(core::attentionLabel(preset("falcon-7b")), "MQA 1/71");
}

TEST(Tables, BreakdownCsvHasEveryNodeWithExactCounts) {
    const core::Analysis analysis = analyzePreset("gpt-2");
    const std::string csv = core::breakdownCsv(analysis.params);
    EXPECT_EQ(csv.rfind("component,parameters,share_percent,shape,per_layer,layers\n", 0), 0u);
    EXPECT_NE(csv.find("Model,124439808,100.0000,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\"[50257, 768]\""), std::string::npos) << csv; // shapes with commas are quoted
    // Header + Model + Embeddings (2 tables) + Layers + its one kind + Attention (4) + Feed-forward (4) +
    // Norms (4) + Final norms (2): 1 + 1 + 3 + 1 + 1 + 5 + 5 + 5 + 3.
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 25);
}

TEST(Tables, MarkdownTablesAreWellFormed) {
    const core::Analysis analysis = analyzePreset("deepseek-v3");
    const std::string md = core::breakdownMarkdown(analysis.params);
    EXPECT_NE(md.find("| Model | 671,026,404,352 |  | 100.0% |"), std::string::npos) << md;
    EXPECT_NE(md.find("Multi-token prediction module"), std::string::npos);
    const std::string summary = core::summaryMarkdown(core::summaryRows(analysis));
    EXPECT_NE(summary.find("| Total parameters | 671B | 671,026,404,352 |"), std::string::npos) << summary;
}

TEST(Tables, PublishedActiveCountsAreComparedByTheVendorsConvention) {
    // OpenAI publishes gpt-oss-120b's active count without the embedding lookup: 5.13B. archplay's active
    // figure (5,711,982,912) keeps its convention; active_compute, which leaves the lookup out, matches.
    const core::Preset* preset = core::findPreset("gpt-oss-120b");
    ASSERT_TRUE(preset && preset->info.publishedActive);
    EXPECT_DOUBLE_EQ(preset->info.publishedActive->billions, 5.13);
    EXPECT_EQ(preset->info.publishedActive->decimals, 2);
    const core::Analysis analysis = analyzePreset("gpt-oss-120b");
    EXPECT_EQ(analysis.params.active, 5'711'982'912u);
    EXPECT_EQ(analysis.params.activeCompute, 5'132'849'472u);
    core::SummaryContext context;
    context.publishedActive = preset->info.publishedActive;
    const auto rows = core::summaryRows(analysis, context);
    const core::SummaryRow& active = *core::findRow(rows, "active_params");
    EXPECT_EQ(active.value, "5.71B");
    EXPECT_EQ(active.detail, "✓ published 5.13B w/o embedding");
    EXPECT_EQ(active.tone, core::Tone::Good);
    // Counted everything's way, the same published figure does not match.
    core::PublishedActive everything = *preset->info.publishedActive;
    everything.withoutEmbedding = false;
    const core::PublishedVerdict verdict = core::publishedActiveVerdict(analysis.params, everything);
    EXPECT_FALSE(verdict.matches);
    EXPECT_EQ(verdict.detail, "≠ published 5.13B");
    // gpt-oss-20b: 3.61B published, 3,608,307,264 without the lookup.
    EXPECT_TRUE(core::publishedActiveVerdict(analyzePreset("gpt-oss-20b").params,
                                             *core::findPreset("gpt-oss-20b")->info.publishedActive)
                    .matches);
}

} // namespace
} // namespace archplay::test

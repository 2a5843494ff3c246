// SPDX-License-Identifier: GPL-3.0-or-later
// Exact parameter counts against published counts of real checkpoints.
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace archplay::test {
namespace {

using core::analyze;
using core::Scenario;

nlohmann::json referenceCounts() {
    std::ifstream in(std::filesystem::path(kReferenceDir) / "counts.json");
    return nlohmann::json::parse(in, nullptr, false);
}

TEST(ReferenceCounts, EveryReferenceConfigCountsExactly) {
    const nlohmann::json counts = referenceCounts();
    ASSERT_TRUE(counts.is_object()) << "cannot read " << kReferenceDir << "/counts.json";
    int checked = 0;
    for (const auto& [name, entry] : counts.items()) {
        if (!entry["total_params"].is_number_unsigned()) {
            continue;
        }
        const auto path = std::filesystem::path(kReferenceDir) / "configs" / (name + ".json");
        const core::ImportResult imported = core::importConfigFile(path);
        ASSERT_TRUE(imported.config.has_value()) << name;
        const core::Analysis analysis = analyze(*imported.config, Scenario{});
        ASSERT_TRUE(analysis.valid) << name;
        EXPECT_EQ(analysis.params.total, entry["total_params"].get<std::uint64_t>()) << name;
        ++checked;
    }
    EXPECT_GE(checked, 28);
}

TEST(PresetCounts, EveryPresetWithAPublishedCountMatchesIt) {
    int checked = 0;
    for (const core::Preset& preset : core::builtinPresets()) {
        const auto config = core::presetConfig(preset);
        ASSERT_TRUE(config.has_value()) << preset.info.id;
        const core::Analysis analysis = analyze(*config, Scenario{});
        ASSERT_TRUE(analysis.valid) << preset.info.id;
        if (preset.info.publishedParams) {
            EXPECT_EQ(analysis.params.total, *preset.info.publishedParams) << preset.info.id;
            ++checked;
        }
    }
    EXPECT_GE(core::builtinPresets().size(), 35u);
    EXPECT_GE(checked, 40);
}

TEST(PresetCounts, ComputedCountsForPresetsWithoutAnExactPublishedCount) {
    // FORMULAS.md §3 and §2.10 give these as computed; no checkpoint count is published for them.
    EXPECT_EQ(analyzePreset("phi-2").params.total, 2'779'683'840u);
    EXPECT_EQ(analyzePreset("gpt-3-175b").params.total, 174'604'259'328u);
}

TEST(ActiveParameters, MoeActiveCountsMatchPublishedFigures) {
    EXPECT_EQ(analyzePreset("mixtral-8x7b-v0.1").params.active, 12'879'925'248u);
    EXPECT_EQ(analyzePreset("qwen3-30b-a3b").params.active, 3'353'032'704u);
    const core::Analysis v3 = analyzePreset("deepseek-v3");
    EXPECT_EQ(v3.params.active, 37'552'282'624u);
    EXPECT_EQ(v3.params.activeCompute, 36'625'603'584u);
}

TEST(ActiveParameters, DenseModelsUseEveryParameter) {
    const core::Analysis llama = analyzePreset("llama-3-8b");
    EXPECT_EQ(llama.params.active, llama.params.total);
}

TEST(Extras, DeepSeekV3MtpModuleIsReportedApart) {
    const core::Analysis v3 = analyzePreset("deepseek-v3");
    // 684,489,845,504 stored - 671,026,419,200 main tensors = 13,463,426,304 = MTP params + 256 buffer.
    EXPECT_EQ(v3.params.extras.params, 13'463'426'048u);
    EXPECT_EQ(v3.params.total, 671'026'404'352u);
}

TEST(HeadDim, ExplicitHeadDimSetsProjectionWidths) {
    // Qwen3-30B-A3B: 32 heads x head_dim 128 = 4096 != hidden 2048.
    const core::Analysis qwen = analyzePreset("qwen3-30b-a3b");
    const core::LayerPlan& layer = qwen.plan.layers.front();
    const auto tensors = core::layerTensors(qwen.config, layer);
    const auto q = std::find_if(tensors.begin(), tensors.end(),
                                [](const core::TensorSpec& t) { return t.name == "self_attn.q_proj.weight"; });
    ASSERT_NE(q, tensors.end());
    EXPECT_EQ(q->shape, (core::Dims{4096, 2048}));
}

TEST(HeadDim, LatentAttentionHeadsNeedNotDivideTheHiddenSize) {
    // MLA's heads are qk_nope 128 + qk_rope 64 wide for queries and keys, v_head_dim 128 for values:
    // hidden / heads is never read, so 120 heads over 7168 is a valid DeepSeek-V3 (the error that said
    // otherwise refused every value the heads slider snaps to but 128).
    core::ModelConfig config = preset("deepseek-v3");
    config.numHeads = 120;
    config.numKvHeads = 120;
    const core::Diagnostics latentOnly = core::validate(config);
    EXPECT_TRUE(std::none_of(latentOnly.begin(), latentOnly.end(),
                             [](const core::Diagnostic& d) { return d.severity == core::Severity::Error; }));
    const core::Analysis analysis = analyze(config, Scenario{});
    ASSERT_TRUE(analysis.valid);
    // Per head and layer: q_b_proj 1536 x 192, kv_b_proj 512 x (128 + 128), o_proj 128 x 7168.
    constexpr std::uint64_t kPerHead = 1536 * 192 + 512 * 256 + 128 * 7168;
    EXPECT_EQ(analysis.params.total, 671'026'404'352u - 8u * 61u * kPerHead);
    EXPECT_EQ(config.queryKeyHeadDim(), 192);
    // An encoder reads head_dim (latent attention is modelled for decoders only), so there it must divide.
    config.architecture = core::ArchitectureKind::EncoderDecoder;
    config.numEncoderLayers = 2;
    const core::Diagnostics diagnostics = core::validate(config);
    EXPECT_TRUE(std::any_of(diagnostics.begin(), diagnostics.end(), [](const core::Diagnostic& d) {
        return d.severity == core::Severity::Error && d.field == "num_attention_heads";
    }));
}

std::uint64_t sumChildren(const core::ParamNode& node) {
    std::uint64_t sum = 0;
    for (const core::ParamNode& child : node.children) {
        EXPECT_EQ(child.params, child.children.empty() ? child.params : sumChildren(child)) << child.name;
        sum += child.params;
    }
    return sum;
}

TEST(Invariants, TotalIsTheSumOfTheBreakdownForEveryPreset) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::Analysis analysis = analyze(*core::presetConfig(preset), Scenario{});
        EXPECT_EQ(sumChildren(analysis.params.breakdown), analysis.params.total) << preset.info.id;
        std::uint64_t components = 0;
        for (std::uint64_t part : analysis.params.byComponent) {
            components += part;
        }
        EXPECT_EQ(components, analysis.params.total) << preset.info.id;
        std::uint64_t layers = 0;
        for (const core::LayerParams& layer : analysis.params.layers) {
            layers += layer.total;
        }
        EXPECT_LT(layers, analysis.params.total) << preset.info.id;
    }
}

TEST(Invariants, ParametersGrowLinearlyWithLayers) {
    for (const char* id : {"llama-3-8b", "gpt-2", "mixtral-8x7b-v0.1", "bert-base-uncased", "gemma-2-9b"}) {
        core::ModelConfig config = preset(id);
        auto totalWith = [&](std::int64_t layers) {
            config.numLayers = layers;
            if (config.slidingPattern == core::SlidingPattern::Explicit) {
                config.layerTypes.clear();
            }
            return analyze(config, Scenario{}).params.total;
        };
        const std::uint64_t a = totalWith(10);
        const std::uint64_t b = totalWith(11);
        const std::uint64_t c = totalWith(12);
        EXPECT_GT(b, a) << id;
        EXPECT_EQ(c - b, b - a) << id;
    }
}

TEST(Invariants, TiedHeadCountsOnce) {
    core::ModelConfig config = preset("llama-3.2-1b");
    ASSERT_TRUE(config.tieWordEmbeddings);
    const std::uint64_t tied = analyze(config, Scenario{}).params.total;
    config.tieWordEmbeddings = false;
    const std::uint64_t untied = analyze(config, Scenario{}).params.total;
    EXPECT_EQ(untied - tied, 128256u * 2048u);
    EXPECT_EQ(untied, 1'498'482'688u); // Llama-Guard-3-1B, the untied sibling (FORMULAS.md §3)
}

TEST(Invariants, GatedFfnHasThreeMatrices) {
    core::ModelConfig config = preset("llama-3-8b");
    const std::uint64_t gated = analyze(config, Scenario{}).params.total;
    config.ffnKind = core::FfnKind::Mlp;
    const std::uint64_t plain = analyze(config, Scenario{}).params.total;
    EXPECT_EQ(gated - plain, 32u * 4096u * 14336u);
}

TEST(Overflow, AbsurdSizesSaturateInsteadOfWrapping) {
    core::ModelConfig config;
    config.hiddenSize = core::kMaxDimension;
    config.numHeads = 1;
    config.numKvHeads = 1;
    config.intermediateSize = core::kMaxDimension;
    config.vocabSize = core::kMaxDimension;
    config.numLayers = 1000;
    const core::Analysis analysis = analyze(config, Scenario{});
    EXPECT_FALSE(analysis.valid);
    EXPECT_TRUE(analysis.params.overflow);
    EXPECT_TRUE(core::hasErrors(analysis.diagnostics));
}

} // namespace
} // namespace archplay::test

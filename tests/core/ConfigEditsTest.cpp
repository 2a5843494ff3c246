// SPDX-License-Identifier: GPL-3.0-or-later
// Edits that keep a config coherent, and the text forms of per-layer lists.
#include "core/config/ConfigEdits.h"

#include "core/config/Snapping.h"
#include "core/validate/Validation.h"
#include "tests/support/TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace archplay::test {
namespace {

TEST(ConfigEdits, ALoadedModelBringsTheSequenceWithinItsContext) {
    const core::ModelConfig bert = preset("bert-base-uncased");
    core::Scenario scenario = scenarioAt(131072);
    EXPECT_EQ(core::fitSequenceToContext(bert, scenario), std::optional<std::uint64_t>(131072));
    EXPECT_EQ(scenario.sequenceLength, 512u);
    EXPECT_EQ(core::fitSequenceToContext(bert, scenario), std::nullopt) << "already within: untouched";
    core::Scenario shorter = scenarioAt(100);
    EXPECT_EQ(core::fitSequenceToContext(bert, shorter), std::nullopt);
    EXPECT_EQ(shorter.sequenceLength, 100u);
}

TEST(ConfigEdits, AttentionFamilies) {
    core::ModelConfig config;
    config.numHeads = 32;
    config.numKvHeads = 32;
    core::edits::setAttentionFamily(config, core::AttentionFamily::GQA);
    EXPECT_EQ(config.numKvHeads, 8);
    EXPECT_EQ(core::attentionFamily(config), core::AttentionFamily::GQA);
    core::edits::setAttentionFamily(config, core::AttentionFamily::MQA);
    EXPECT_EQ(config.numKvHeads, 1);
    core::edits::setAttentionFamily(config, core::AttentionFamily::MLA);
    ASSERT_TRUE(config.latent.has_value());
    EXPECT_EQ(core::attentionFamily(config), core::AttentionFamily::MLA);
    core::edits::setAttentionFamily(config, core::AttentionFamily::MHA);
    EXPECT_FALSE(config.latent.has_value());
    EXPECT_EQ(config.numKvHeads, 32);
}

TEST(ConfigEdits, HeadsKeepGqaValid) {
    core::ModelConfig config;
    config.numHeads = 32;
    config.numKvHeads = 8;
    core::edits::setNumHeads(config, 40);
    EXPECT_EQ(config.numHeads, 40);
    EXPECT_EQ(40 % config.numKvHeads, 0);
    EXPECT_LT(config.numKvHeads, 40);
}

TEST(ConfigEdits, HeadsKeepTheKvHeadsWhileTheyDivideAndNeverTurnGqaIntoMha) {
    // Qwen3-30B-A3B: 32 heads, 4 KV heads, head_dim 128 set on its own.
    const core::ModelConfig qwen3 = preset("qwen3-30b-a3b");
    ASSERT_EQ(qwen3.numHeads, 32);
    ASSERT_EQ(qwen3.numKvHeads, 4);
    for (const auto& [heads, kvHeads] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {36, 4}, {40, 4}, {64, 4}, {8, 4}, {4, 2}, {33, 3}, {34, 2}, {30, 3}, {37, 1}, {2, 1}, {1, 1}}) {
        core::ModelConfig config = qwen3;
        core::edits::setNumHeads(config, heads);
        EXPECT_EQ(config.numHeads, heads);
        EXPECT_EQ(config.numKvHeads, kvHeads) << heads << " heads";
        if (heads > 1) {
            EXPECT_NE(core::attentionFamily(config), core::AttentionFamily::MHA) << heads << " heads";
        }
    }
    // The KV heads do not follow the heads afterwards either.
    core::ModelConfig config = qwen3;
    core::edits::setNumHeads(config, 33);
    core::edits::setNumHeads(config, 36);
    EXPECT_EQ(config.numKvHeads, 3);
    // MHA and MLA keep a KV head per head, MQA one.
    core::ModelConfig mha;
    mha.numHeads = mha.numKvHeads = 12;
    core::edits::setNumHeads(mha, 16);
    EXPECT_EQ(mha.numKvHeads, 16);
    core::ModelConfig mqa;
    mqa.numHeads = 12;
    mqa.numKvHeads = 1;
    core::edits::setNumHeads(mqa, 16);
    EXPECT_EQ(mqa.numKvHeads, 1);
}

TEST(ConfigEdits, HeadsSnapToWholeGroupsAndAWholeHeadDim) {
    // Qwen3-30B-A3B sets head_dim, so only the GQA groups of 4 constrain the heads.
    const core::SnapContext qwen3 = core::snapContext(preset("qwen3-30b-a3b"));
    EXPECT_EQ(qwen3.headGroup, 4);
    EXPECT_EQ(qwen3.hiddenSize, 0);
    EXPECT_EQ(core::snapStep(32, 1, core::Snap::QueryHeads, qwen3, 1, 256), 36);
    EXPECT_EQ(core::snapStep(32, -1, core::Snap::QueryHeads, qwen3, 1, 256), 28);
    EXPECT_EQ(core::snapNearest(33, core::Snap::QueryHeads, qwen3, 1, 256), 32);
    EXPECT_EQ(core::snapNearest(35, core::Snap::QueryHeads, qwen3, 1, 256), 36);
    EXPECT_TRUE(core::isSnapped(36, core::Snap::QueryHeads, qwen3));
    EXPECT_FALSE(core::isSnapped(33, core::Snap::QueryHeads, qwen3));
    // Llama 3 8B sets head_dim 128 too: groups of 8.
    const core::SnapContext llama = core::snapContext(preset("llama-3-8b"));
    EXPECT_EQ(llama.headGroup, 8);
    EXPECT_EQ(core::snapStep(32, 1, core::Snap::QueryHeads, llama, 1, 256), 40);
    // Granite 3.1 8B derives head_dim from 4096 / heads: the heads also divide the hidden size.
    const core::SnapContext granite = core::snapContext(preset("granite-3.1-8b"));
    EXPECT_EQ(granite.headGroup, 8);
    EXPECT_EQ(granite.hiddenSize, 4096);
    EXPECT_EQ(core::snapStep(32, 1, core::Snap::QueryHeads, granite, 1, 256), 64);
    EXPECT_EQ(core::snapNearest(40, core::Snap::QueryHeads, granite, 1, 256), 32);
    // GPT-2 is MHA over 768: any divisor of the hidden size (12 -> 16 -> 24).
    const core::SnapContext gpt2 = core::snapContext(preset("gpt-2"));
    EXPECT_EQ(gpt2.headGroup, 1);
    EXPECT_EQ(core::snapStep(12, 1, core::Snap::QueryHeads, gpt2, 1, 256), 16);
    EXPECT_EQ(core::snapStep(16, 1, core::Snap::QueryHeads, gpt2, 1, 256), 24);
    // No multiple of the group divides the hidden size: whole groups are what is kept.
    const core::SnapContext odd{32, 8, 4100};
    EXPECT_EQ(core::snapStep(32, 1, core::Snap::QueryHeads, odd, 1, 256), 40);
    // Every snapped value keeps the config free of errors, and GQA keeps its KV heads there.
    // DeepSeek-V3's latent heads are free: every count is snapped, and none may be an error.
    for (const char* id : {"qwen3-30b-a3b", "llama-3-8b", "granite-3.1-8b", "gpt-2", "deepseek-v3"}) {
        const core::ModelConfig base = preset(id);
        const core::SnapContext context = core::snapContext(base);
        for (std::int64_t heads = base.numKvHeads; heads <= 256; ++heads) {
            if (!core::isSnapped(heads, core::Snap::QueryHeads, context)) {
                continue;
            }
            core::ModelConfig config = base;
            core::edits::setNumHeads(config, heads);
            const core::Diagnostics diagnostics = core::validate(config);
            EXPECT_TRUE(std::none_of(diagnostics.begin(), diagnostics.end(),
                                     [](const core::Diagnostic& d) { return d.severity == core::Severity::Error; }))
                << id << " at " << heads << " heads";
            if (core::attentionFamily(base) == core::AttentionFamily::GQA && heads > base.numKvHeads) {
                EXPECT_EQ(config.numKvHeads, base.numKvHeads) << id << " at " << heads << " heads";
            }
        }
    }
}

TEST(ConfigEdits, FfnKeepsItsRatioToTheHiddenSize) {
    core::ModelConfig config;
    config.hiddenSize = 4096;
    config.intermediateSize = 14336;
    core::edits::EditContext context;
    context.keepFfnRatio = true;
    context.snap = true;
    context.ffnRatio = 14336.0 / 4096.0;
    core::edits::setHiddenSize(config, 8192, context);
    EXPECT_EQ(config.hiddenSize, 8192);
    EXPECT_EQ(config.intermediateSize, 28672);
    context.keepFfnRatio = false;
    core::edits::setHiddenSize(config, 2048, context);
    EXPECT_EQ(config.intermediateSize, 28672);
}

TEST(ConfigEdits, HeadDimFollowsOrHolds) {
    core::ModelConfig config;
    config.hiddenSize = 4096;
    config.numHeads = 32;
    config.headDim.reset();
    core::edits::setHeadDimFollows(config, false);
    ASSERT_TRUE(config.headDim.has_value());
    EXPECT_EQ(*config.headDim, 128);
    core::edits::setHeadDimFollows(config, true);
    EXPECT_FALSE(config.headDim.has_value());
}

TEST(ConfigEdits, LayerListsParseAndFormat) {
    EXPECT_EQ(core::edits::parseLayerList(std::string("0, 5 7")), (std::vector<std::int64_t>{0, 5, 7}));
    EXPECT_EQ(core::edits::parseLayerList(std::string()), std::vector<std::int64_t>{});
    EXPECT_FALSE(core::edits::parseLayerList(std::string("1, x")).has_value());
    EXPECT_FALSE(core::edits::parseLayerList(std::string("-1")).has_value());
    EXPECT_EQ(core::edits::formatLayerList({1, 2}), std::string("1, 2"));
    const auto types = core::edits::parseLayerTypes(std::string("S sliding_attention G full_attention c"));
    ASSERT_TRUE(types.has_value());
    EXPECT_EQ(core::edits::formatLayerTypes(*types), std::string("S S G G C"));
    EXPECT_FALSE(core::edits::parseLayerTypes(std::string("S Q")).has_value());
}

TEST(ConfigEdits, MixerListsReadLettersAndNamesAndPrintTheirPeriod) {
    using core::TokenMixer;
    const auto parsed = core::edits::parseMixers(std::string("d, D gated_deltanet A m c P L"));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed,
              (std::vector<TokenMixer>{TokenMixer::GatedDeltaNet, TokenMixer::GatedDeltaNet, TokenMixer::GatedDeltaNet,
                                       TokenMixer::Attention, TokenMixer::Mamba2, TokenMixer::ShortConv,
                                       TokenMixer::AttentionWithMamba2, TokenMixer::LightningAttention}));
    EXPECT_FALSE(core::edits::parseMixers(std::string("D X")).has_value());
    EXPECT_EQ(core::edits::parseMixers(std::string())->size(), 0u);
    // A list that repeats (Qwen3-Next's 48 layers) prints as its period; the stack reads it cyclically.
    std::vector<TokenMixer> next;
    for (int i = 0; i < 48; ++i) {
        next.push_back(i % 4 == 3 ? TokenMixer::Attention : TokenMixer::GatedDeltaNet);
    }
    EXPECT_EQ(core::edits::formatMixers(next), std::string("D D D A"));
    next.back() = TokenMixer::GatedDeltaNet;
    const std::string all = core::edits::formatMixers(next);
    EXPECT_EQ(std::count(all.begin(), all.end(), ' '), 47);
    EXPECT_EQ(core::edits::formatMixers({}), std::string());
}

bool hints(const core::ModelConfig& config, const std::string& field) {
    for (const core::Diagnostic& d : core::validate(config)) {
        if (d.field == field && d.severity == core::Severity::Hint) {
            return true;
        }
    }
    return false;
}

TEST(ConfigEdits, SnappedWidthsNeverDrawTheHardwareHints) {
    // The sliders snap with the rules the hints check: a snapped width is never flagged.
    for (std::int64_t value = 100; value < 70000; value = value * 5 / 4 + 7) {
        core::ModelConfig config;
        config.hiddenSize = core::snapNearest(value, core::kHiddenSnap, {}, 64, 1 << 20);
        config.intermediateSize = core::snapNearest(value, core::kFfnSnap, {}, 64, 1 << 24);
        config.vocabSize = core::snapNearest(value, core::kVocabSnap, {}, 256, 1 << 26);
        config.numHeads = 32;
        config.numKvHeads = 8;
        config.headDim = 128;
        EXPECT_FALSE(hints(config, "hidden_size")) << config.hiddenSize;
        EXPECT_FALSE(hints(config, "intermediate_size")) << config.intermediateSize;
        EXPECT_FALSE(hints(config, "vocab_size")) << config.vocabSize;
        // The ratio lock snaps the FFN width it derives in the same way.
        core::edits::setHiddenSize(config, config.hiddenSize, {.snap = true, .keepFfnRatio = true, .ffnRatio = 2.6875});
        EXPECT_FALSE(hints(config, "intermediate_size")) << config.intermediateSize;
    }
    core::ModelConfig odd;
    odd.intermediateSize = 11000;
    EXPECT_TRUE(hints(odd, "intermediate_size"));
}

} // namespace
} // namespace archplay::test

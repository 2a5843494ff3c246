// SPDX-License-Identifier: GPL-3.0-or-later
// Edits that keep a config coherent, and the text forms of per-layer lists.
#include "core/config/ConfigEdits.h"

#include "core/config/Snapping.h"
#include "core/validate/Validation.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace archplay::test {
namespace {

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

// SPDX-License-Identifier: GPL-3.0-or-later
// The one set of names for layer kinds and layers, shared by the views, the reports and the CLI.
#include "core/config/LayerPlan.h"
#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

TEST(LayerNames, KindsNameTheirMixerWindowAndFeedForward) {
    const auto gemma = analyzePreset("gemma-3-1b");
    EXPECT_EQ(core::layerKindName(gemma.config, gemma.plan.layers[0]), "sliding 512 · gated");
    EXPECT_EQ(core::layerKindName(gemma.config, gemma.plan.layers[5]), "global · gated");
    const auto mixtral = analyzePreset("mixtral-8x7b-v0.1");
    EXPECT_EQ(core::ffnKindName(mixtral.config, mixtral.plan.layers[0].ffn), "MoE 8 × top-2");
    const auto next = analyzePreset("qwen3-next-80b-a3b");
    EXPECT_EQ(core::attentionKindName(next.plan.layers[0]), "Gated DeltaNet");
    const auto v3 = analyzePreset("deepseek-v3");
    EXPECT_EQ(core::attentionKindName(v3.plan.layers[0]), "latent (MLA)");
    const auto t5 = analyzePreset("t5-small");
    EXPECT_EQ(core::attentionKindName(t5.plan.layers[0]), "bidirectional");
}

TEST(LayerNames, TitlesCountTheirOwnStack) {
    const auto t5 = analyzePreset("t5-small");
    EXPECT_EQ(core::layerTitle(t5.config, t5.plan.layers.front()), "Encoder layer 0 of 0–5");
    EXPECT_EQ(core::layerTitle(t5.config, t5.plan.layers.back()), "Decoder layer 5 of 0–5");
    const auto llama = analyzePreset("llama-3-8b");
    EXPECT_EQ(core::layerTitle(llama.config, llama.plan.layers[3]), "Layer 3 of 0–31");
}

} // namespace
} // namespace archplay::test

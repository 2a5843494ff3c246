// SPDX-License-Identifier: GPL-3.0-or-later
// Products of config values (heads x head_dim, experts x width, vocab x hidden, ...) are either exact
// or an error naming a field: never a wrapped count, never "valid".
#include "core/derivation/Derivation.h"
#include "tests/support/TestSupport.h"

#include <functional>
#include <string>

namespace archplay::test {
namespace {

constexpr std::int64_t k2To40 = core::kMaxDimension;

struct HugeProduct {
    const char* name;
    std::function<void(core::ModelConfig&)> apply;
    const char* field; ///< the field the error must name
};

core::ModelConfig small() {
    core::ModelConfig config;
    config.vocabSize = 1024;
    config.hiddenSize = 1024;
    config.numLayers = 2;
    config.numHeads = 8;
    config.numKvHeads = 8;
    config.intermediateSize = 4096;
    return config;
}

const HugeProduct kHugeProducts[] = {
    {"heads x head_dim",
     [](core::ModelConfig& c) {
         c.numHeads = k2To40;
         c.numKvHeads = k2To40;
         c.headDim = k2To40;
     },
     "num_attention_heads"},
    {"latent heads x (nope + v)",
     [](core::ModelConfig& c) {
         c.numHeads = k2To40;
         c.headDim = 128;
         c.latent = core::LatentAttention{};
         c.latent->qkNopeHeadDim = k2To40;
         c.latent->vHeadDim = k2To40;
     },
     "num_attention_heads"},
    {"shared experts x width",
     [](core::ModelConfig& c) {
         c.ffnKind = core::FfnKind::Moe;
         c.moe.numSharedExperts = k2To40;
         c.moe.sharedExpertIntermediateSize = k2To40;
     },
     "n_shared_experts"},
    {"experts x width x hidden",
     [](core::ModelConfig& c) {
         c.ffnKind = core::FfnKind::Moe;
         c.moe.numExperts = k2To40;
         c.moe.topK = 1;
         c.moe.expertIntermediateSize = k2To40;
     },
     "num_experts"},
    {"vocab x hidden",
     [](core::ModelConfig& c) {
         c.vocabSize = k2To40;
         c.hiddenSize = k2To40;
         c.headDim = 128;
         c.intermediateSize = k2To40;
     },
     "vocab_size"},
    {"DeltaNet value heads x value head dim",
     [](core::ModelConfig& c) {
         c.mixers = {core::TokenMixer::GatedDeltaNet, core::TokenMixer::Attention};
         c.deltaNet.numValueHeads = k2To40;
         c.deltaNet.numKeyHeads = 1;
         c.deltaNet.valueHeadDim = k2To40;
     },
     "linear_num_value_heads"},
    {"Mamba heads x head dim",
     [](core::ModelConfig& c) {
         c.mixers = {core::TokenMixer::Mamba2};
         c.mamba.numHeads = k2To40;
         c.mamba.headDim = k2To40;
     },
     "mamba_n_heads"},
};

TEST(Overflow, ProductsOfConfigValuesAreAnErrorNamingTheField) {
    for (const HugeProduct& huge : kHugeProducts) {
        core::ModelConfig config = small();
        huge.apply(config);
        ASSERT_FALSE(core::hasErrors(core::validate(config))) << huge.name << ": every dimension is within the cap";
        const core::Analysis analysis = core::analyze(config, {});
        EXPECT_FALSE(analysis.valid) << huge.name;
        EXPECT_TRUE(analysis.params.overflow) << huge.name;
        bool named = false;
        for (const core::Diagnostic& d : analysis.diagnostics) {
            named = named || (d.severity == core::Severity::Error && d.field == huge.field &&
                              d.message.find("2^64 - 1") != std::string::npos);
        }
        EXPECT_TRUE(named) << huge.name << ": no error on " << huge.field;
    }
}

TEST(Overflow, DerivationWritesWidthsBeyondInt64Exactly) {
    // q_proj with its output gate is 2 x 2^22 x 2^40 = 2^63 wide: one past INT64_MAX, yet the whole
    // model still counts below 2^64, so the analysis is valid and the derivation is shown.
    core::ModelConfig config = small();
    config.hiddenSize = 1;
    config.numLayers = 1;
    config.numHeads = std::int64_t{1} << 22;
    config.numKvHeads = 1;
    config.headDim = k2To40;
    config.attentionOutputGate = true;
    config.intermediateSize = 64;
    const core::Analysis analysis = core::analyze(config, {});
    ASSERT_TRUE(analysis.valid);
    bool found = false;
    for (const std::string& math : core::mathFragments(core::deriveForwardPass(analysis.config, analysis.plan))) {
        EXPECT_EQ(math.find("-9{,}223"), std::string::npos) << math;
        found = found || math.find("W_{Q} \\in \\mathbb{R}^{1 \\times 9{,}223{,}372{,}036{,}854{,}775{,}808}") !=
                             std::string::npos;
    }
    EXPECT_TRUE(found);
}

TEST(Overflow, ValidationMessagesNeverWrap) {
    core::ModelConfig config = small();
    config.vocabSize = INT64_MAX - 5;
    for (const core::Diagnostic& d : core::validate(config)) {
        EXPECT_EQ(d.message.find("-9223372036854775"), std::string::npos) << d.field << ": " << d.message;
        if (d.field == "vocab_size") {
            EXPECT_EQ(d.severity, core::Severity::Error) << d.message;
        }
    }
}

} // namespace
} // namespace archplay::test

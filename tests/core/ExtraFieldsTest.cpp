// SPDX-License-Identifier: GPL-3.0-or-later
// The typed fields read from config.json keys the model otherwise passes through: the router's rule
// and the forward-pass constants. Read once by core/io, written back on export only when changed.
#include "core/routing/RoutingSimulation.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

namespace archplay::test {
namespace {

using core::RouterScoring;

core::ModelConfig imported(const std::string& text) {
    const core::ImportResult result = core::importConfigText(text);
    EXPECT_TRUE(result.config) << text;
    return result.config.value_or(core::ModelConfig{});
}

/// Export, then import again: the config that comes back.
core::ModelConfig roundTrip(const core::ModelConfig& config) {
    return imported(core::exportConfigText(config));
}

/// The config without its uninterpreted keys: after an edit the typed fields are what counts, and
/// the keys passed through still hold the values read before the edit.
core::ModelConfig interpreted(core::ModelConfig config) {
    config.passthrough = core::Passthrough();
    return config;
}

TEST(RouterRule, IsReadFromTheConfigWithTheFamilyDefaults) {
    const core::RouterRule v3 = preset("deepseek-v3").moe.router;
    EXPECT_EQ(v3.scoring, RouterScoring::Sigmoid);
    EXPECT_TRUE(v3.normaliseTopK);
    EXPECT_EQ(v3.groups, 8);
    EXPECT_EQ(v3.topKGroups, 4);
    EXPECT_TRUE(v3.groupByTopTwo);
    EXPECT_DOUBLE_EQ(v3.routedScaling, 2.5);

    // Mixtral renormalises without saying so; DeepSeek-V2-Lite's greedy routing has no group limit.
    EXPECT_TRUE(preset("mixtral-8x7b-v0.1").moe.router.normaliseTopK);
    const core::RouterRule lite = preset("deepseek-v2-lite").moe.router;
    EXPECT_FALSE(lite.normaliseTopK);
    EXPECT_EQ(lite.groups, 1);
    EXPECT_EQ(lite.scoring, RouterScoring::Softmax);
    EXPECT_TRUE(preset("qwen3-30b-a3b").moe.router.normaliseTopK);
    EXPECT_EQ(preset("llama-3-8b").moe.router, core::RouterRule{});
}

TEST(RouterRule, AGroupLimitTheExpertsCannotHoldIsDropped) {
    core::ModelConfig config = preset("deepseek-v3");
    EXPECT_EQ(core::routerSettings(config).groups, 8);
    config.moe.numExperts = 250; // not a multiple of n_group 8
    const core::RouterSettings settings = core::routerSettings(config);
    EXPECT_EQ(settings.groups, 1);
    EXPECT_EQ(settings.topKGroups, 1);
    EXPECT_FALSE(settings.groupByTopTwo);
    EXPECT_EQ(settings.scoring, RouterScoring::Sigmoid); // the rest of the rule stays
    EXPECT_EQ(config.moe.router.groups, 8);              // the config keeps what config.json says
}

TEST(ForwardDetails, FamilyConventionsAndConstantsAreRead) {
    const core::ForwardDetails gemma = preset("gemma-2-2b").forward;
    EXPECT_TRUE(gemma.embeddingScaledBySqrtHidden);
    EXPECT_TRUE(gemma.normGainPlusOne);
    EXPECT_FALSE(gemma.attentionUnscaled);
    EXPECT_EQ(gemma.queryPreAttentionScalar, 256.0);
    EXPECT_EQ(gemma.attentionLogitSoftcap, 50.0);
    EXPECT_EQ(gemma.finalLogitSoftcap, 30.0);
    EXPECT_EQ(gemma.normEpsilon, 1e-6);

    const core::ForwardDetails llama = preset("llama-3.1-8b").forward;
    EXPECT_FALSE(llama.embeddingScaledBySqrtHidden);
    EXPECT_EQ(llama.ropeTheta, 500000.0);
    ASSERT_TRUE(llama.ropeScaling);
    EXPECT_EQ(llama.ropeScaling->type, "llama3");
    EXPECT_EQ(llama.ropeScaling->factor, 8.0);

    const core::ForwardDetails t5 = preset("flan-t5-base").forward;
    EXPECT_TRUE(t5.attentionUnscaled);
    EXPECT_TRUE(t5.tiedHeadInputScaled);
    EXPECT_EQ(t5.normEpsilon, 1e-6); // layer_norm_epsilon

    // The older "type" key names the scaling too; a null rope_scaling is none.
    const auto yarn = preset("deepseek-v2-lite").forward.ropeScaling;
    ASSERT_TRUE(yarn);
    EXPECT_EQ(yarn->type, "yarn");
    EXPECT_FALSE(preset("qwen3-30b-a3b").forward.ropeScaling);
}

TEST(ForwardDetails, AWrapperReadsTheNumbersOfItsTextModel) {
    const auto config = imported(R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text",
        "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0, "rms_norm_eps": 1e-6}})");
    EXPECT_EQ(config.forward.ropeTheta, 1e6);
    EXPECT_EQ(config.forward.ropeLocalTheta, 1e4);
    EXPECT_EQ(config.forward.normEpsilon, 1e-6);
    EXPECT_TRUE(config.forward.embeddingScaledBySqrtHidden);
}

TEST(ExtraFields, AnUnchangedConfigKeepsItsKeysAsWritten) {
    const std::string text = R"({"model_type": "llama", "rope_theta": 500000, "rms_norm_eps": 1e-05,
        "norm_topk_prob": true, "rope_scaling": {"type": "linear", "factor": 2.0, "extra": 1}})";
    const nlohmann::json out = core::exportConfig(imported(text));
    const nlohmann::json in = nlohmann::json::parse(text);
    for (const char* key : {"rope_theta", "rms_norm_eps", "norm_topk_prob", "rope_scaling"}) {
        EXPECT_EQ(out[key].dump(), in[key].dump()) << key; // 500000 stays an integer, "extra" stays
    }
    EXPECT_FALSE(out.contains("scoring_func"));
    EXPECT_FALSE(out.contains("n_group"));
}

TEST(ExtraFields, AnEditedRuleOrConstantIsWrittenBack) {
    for (const char* id : {"deepseek-v3", "mixtral-8x7b-v0.1", "gemma-3-27b", "llama-3.1-8b", "gpt-2"}) {
        core::ModelConfig config = preset(id);
        config.moe.router.normaliseTopK = !config.moe.router.normaliseTopK;
        config.moe.router.scoring = RouterScoring::Sigmoid;
        config.moe.router.groups = 4;
        config.moe.router.topKGroups = 2;
        config.moe.router.groupByTopTwo = false;
        config.moe.router.routedScaling = 1.5;
        config.forward.ropeTheta = 123456.0;
        config.forward.ropeScaling = core::RopeScaling{.type = "dynamic", .factor = 2.0};
        config.forward.normEpsilon = 1e-3;
        config.forward.finalLogitSoftcap.reset();
        core::Diagnostics notes;
        const std::string text = core::exportConfigText(config, &notes);
        EXPECT_TRUE(notes.empty()) << id << ": written in the family's own format";
        EXPECT_EQ(interpreted(imported(text)), interpreted(config)) << id;

        config.forward.ropeScaling.reset();
        config.forward.normEpsilon.reset();
        config.forward.ropeTheta.reset();
        EXPECT_EQ(interpreted(roundTrip(config)), interpreted(config)) << id;
    }
}

TEST(ExtraFields, TheNativeFormatKeepsTheFamilyConventions) {
    core::ModelConfig gemma = preset("gemma-2-2b");
    gemma.modelType = "llama"; // a label change: Llama's reader would not scale the embeddings
    core::Diagnostics notes;
    const nlohmann::json out = core::exportConfig(gemma, &notes);
    EXPECT_EQ(out["model_type"], "archplay");
    EXPECT_FALSE(notes.empty());
    EXPECT_EQ(out["archplay_model_type"], "llama");
    core::ModelConfig back = imported(out.dump());
    EXPECT_EQ(back.modelType, "llama") << "written natively, read back as the family it came from";
    EXPECT_EQ(back.forward, gemma.forward);
    EXPECT_EQ(back.moe.router, gemma.moe.router);

    core::ModelConfig t5 = preset("flan-t5-base");
    t5.ffnKind = core::FfnKind::Moe; // T5's keys cannot say this
    back = imported(core::exportConfigText(t5));
    EXPECT_EQ(back.modelType, "t5");
    EXPECT_EQ(back.ffnKind, core::FfnKind::Moe);
    EXPECT_EQ(back.forward, t5.forward);
}

} // namespace
} // namespace archplay::test

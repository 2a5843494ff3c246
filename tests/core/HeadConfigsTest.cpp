// SPDX-License-Identifier: GPL-3.0-or-later
// Head configurations: every listed split is valid, counted by the core exactly as analyze() counts
// the applied config, in the documented ranges, with the current split marked and the flags honest.
#include "core/design/HeadConfigs.h"

#include "tests/support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <tuple>

namespace archplay::test {
namespace {

/// The list's invariants for a config whose attention heads can be chosen.
void checkList(const std::string& id) {
    SCOPED_TRACE(id);
    const core::ModelConfig config = preset(id);
    const core::HeadConfigList list = core::listHeadConfigs(config, core::DType::BF16);
    ASSERT_TRUE(list.reason.empty()) << list.reason;
    ASSERT_FALSE(list.configs.empty());
    const core::Analysis current = core::analyze(config, {});
    const core::HeadShape own{config.numHeads, config.effectiveHeadDim(), config.numKvHeads};
    std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> seen;
    int currents = 0;
    for (const core::HeadConfig& head : list.configs) {
        const core::HeadShape& s = head.shape;
        EXPECT_TRUE(seen.insert({s.numHeads, s.headDim, s.numKvHeads}).second) << "listed twice";
        const core::ModelConfig applied = core::applyHeadShape(config, s);
        EXPECT_EQ(applied.numHeads, s.numHeads);
        EXPECT_EQ(applied.numKvHeads, s.numKvHeads);
        EXPECT_EQ(applied.effectiveHeadDim(), s.headDim);
        EXPECT_FALSE(core::hasErrors(core::validate(applied))) << s.numHeads << "/" << s.headDim << "/" << s.numKvHeads;
        // One analyze() of the applied config gives the same counts and cache.
        const core::Analysis analysis = core::analyze(applied, {});
        ASSERT_TRUE(analysis.valid);
        EXPECT_EQ(head.totalParams, analysis.params.total);
        EXPECT_EQ(head.activeParams, analysis.params.active);
        EXPECT_EQ(head.kvBytesPerToken, analysis.kv.bytesPerToken);
        EXPECT_EQ(head.totalParamsDelta, std::int64_t(analysis.params.total) - std::int64_t(current.params.total));
        EXPECT_EQ(head.kvBytesPerTokenDelta,
                  std::int64_t(analysis.kv.bytesPerToken) - std::int64_t(current.kv.bytesPerToken));
        EXPECT_EQ(head.family, core::attentionFamily(applied));
        // The flags, each by its stated rule.
        EXPECT_EQ(head.current, s == own);
        currents += head.current ? 1 : 0;
        EXPECT_EQ(head.usualHeadDim, s.headDim >= 64 && s.headDim <= 128);
        EXPECT_EQ(head.exactWidth, s.numHeads * s.headDim == config.hiddenSize);
        if (head.tensorParallel8) {
            EXPECT_EQ(s.numHeads % 8, 0);
            EXPECT_TRUE(s.numKvHeads % 8 == 0 || 8 % s.numKvHeads == 0);
        } else {
            EXPECT_FALSE(s.numHeads % 8 == 0 && (s.numKvHeads % 8 == 0 || 8 % s.numKvHeads == 0));
        }
        // The ranges, except for the config's own split.
        EXPECT_EQ(s.numHeads % s.numKvHeads, 0);
        if (!head.current) {
            EXPECT_NE(std::find(std::begin(core::kHeadDims), std::end(core::kHeadDims), s.headDim),
                      std::end(core::kHeadDims));
            EXPECT_GE(2 * s.numHeads * s.headDim, config.hiddenSize);
            EXPECT_LE(s.numHeads * s.headDim, 2 * config.hiddenSize);
            EXPECT_LE(s.numHeads, core::kMaxHeads);
            EXPECT_TRUE(s.numHeads * s.headDim % core::kQueryWidthMultiple == 0 ||
                        s.numHeads * s.headDim == config.hiddenSize);
        }
    }
    EXPECT_EQ(currents, 1);
    EXPECT_LE(list.configs.size(), core::kMaxHeadConfigs);
    EXPECT_EQ(list.dropped, 0u); // no preset tested here is wide enough to reach the cap
    EXPECT_EQ(list.configs.size() + list.invalid + list.dropped, list.candidates);
}

TEST(HeadConfigs, EveryListedSplitIsValidAndCountedAsAnalyzeCountsIt) {
    checkList("llama-3-8b");
    checkList("gemma-3-1b");         // explicit head_dim 256 x 4 heads = 1024 for a hidden size of 1152
    checkList("phi-2");              // partial RoPE (0.4 of head_dim)
    checkList("qwen3-next-80b-a3b"); // attention in one layer of four, output gate, QK-norm
    checkList("bert-base-uncased");  // encoder-only: no cache, but heads to choose
}

TEST(HeadConfigs, LlamaThreeEightBByHand) {
    const core::HeadConfigList list = core::listHeadConfigs(preset("llama-3-8b"));
    const auto find = [&list](std::int64_t heads, std::int64_t headDim, std::int64_t kv) {
        return std::find_if(list.configs.begin(), list.configs.end(), [&](const core::HeadConfig& head) {
            return head.shape == core::HeadShape{heads, headDim, kv};
        });
    };
    const auto own = find(32, 128, 8);
    ASSERT_NE(own, list.configs.end());
    EXPECT_TRUE(own->current);
    EXPECT_EQ(own->totalParams, 8'030'261'248u);
    EXPECT_EQ(own->kvBytesPerToken, 131'072u); // 2 (K, V) x 8 heads x 128 x 2 bytes x 32 layers
    EXPECT_EQ(own->family, core::AttentionFamily::GQA);
    EXPECT_TRUE(own->tensorParallel8);
    // MHA: 24 more KV heads of 128 in k_proj and v_proj: 32 layers x 2 x 4096 x 24 x 128 parameters.
    const auto mha = find(32, 128, 32);
    ASSERT_NE(mha, list.configs.end());
    EXPECT_EQ(mha->totalParamsDelta, 32LL * 2 * 4096 * 24 * 128);
    EXPECT_EQ(mha->kvBytesPerToken, 4u * 131'072u);
    EXPECT_EQ(mha->family, core::AttentionFamily::MHA);
    const auto mqa = find(64, 64, 1);
    ASSERT_NE(mqa, list.configs.end());
    EXPECT_EQ(mqa->family, core::AttentionFamily::MQA);
    EXPECT_EQ(mqa->kvBytesPerToken, 2u * 64 * 2 * 32);
    EXPECT_TRUE(mqa->tensorParallel8); // one KV head, replicated on 8 GPUs
    const auto odd = find(24, 128, 3); // width 3072: 0.75 H
    ASSERT_NE(odd, list.configs.end());
    EXPECT_FALSE(odd->tensorParallel8);
    EXPECT_FALSE(odd->exactWidth);
    // Nearest the hidden size first.
    EXPECT_TRUE(list.configs.front().exactWidth);
    // heads x head_dim = 4096: head_dim 32, 64, 128 or 256 (the others do not divide 4096) with 128, 64,
    // 32 or 16 heads, whose divisors number 8, 7, 6 and 5.
    EXPECT_EQ(std::count_if(list.configs.begin(), list.configs.end(),
                            [](const core::HeadConfig& head) { return head.exactWidth; }),
              26);
}

TEST(HeadConfigs, ApplyingKeepsADerivedHeadDimAbsent) {
    const core::ModelConfig config = preset("llama-3.1-8b"); // no head_dim in its config.json
    ASSERT_FALSE(config.headDim.has_value());
    EXPECT_FALSE(core::applyHeadShape(config, {64, 64, 8}).headDim.has_value());
    EXPECT_EQ(core::applyHeadShape(config, {32, 96, 8}).headDim, 96);
    EXPECT_EQ(core::applyHeadShape(config, {32, 128, 8}), config);
}

TEST(HeadConfigs, MlaNoAttentionAndInvalidConfigsListNone) {
    const core::HeadConfigList mla = core::listHeadConfigs(preset("deepseek-v3"));
    EXPECT_TRUE(mla.configs.empty());
    EXPECT_NE(mla.reason.find("MLA"), std::string::npos);

    core::ModelConfig mamba = preset("llama-3-8b");
    mamba.mixers = {core::TokenMixer::Mamba2};
    ASSERT_FALSE(core::hasErrors(core::validate(mamba)));
    const core::HeadConfigList none = core::listHeadConfigs(mamba);
    EXPECT_TRUE(none.configs.empty());
    EXPECT_NE(none.reason.find("no layer has softmax attention"), std::string::npos);

    core::ModelConfig broken = preset("llama-3-8b");
    broken.numKvHeads = 5;
    const core::HeadConfigList invalid = core::listHeadConfigs(broken);
    EXPECT_TRUE(invalid.configs.empty());
    EXPECT_NE(invalid.reason.find("num_key_value_heads"), std::string::npos);
}

TEST(HeadConfigs, AnEstimatedConfigIsLabelledSo) {
    core::ModelConfig estimated = preset("llama-3-8b");
    EXPECT_TRUE(core::listHeadConfigs(estimated).estimate.empty());
    estimated.ignoredFields = {"moe_k"};
    const core::HeadConfigList list = core::listHeadConfigs(estimated);
    EXPECT_EQ(list.estimate, "estimate: ignores moe_k");
    EXPECT_EQ(core::headConfigsJson(list, estimated)["exact"], false);
}

TEST(HeadConfigs, JsonListsEachSplit) {
    const core::ModelConfig config = preset("llama-3-8b");
    const core::HeadConfigList list = core::listHeadConfigs(config);
    const nlohmann::json json = core::headConfigsJson(list, config);
    EXPECT_EQ(json["hidden_size"], 4096);
    ASSERT_EQ(json["configs"].size(), list.configs.size());
    EXPECT_EQ(json["configs"][0]["num_attention_heads"], list.configs[0].shape.numHeads);
    EXPECT_EQ(json["configs"][0]["total_params"], list.configs[0].totalParams);
}

} // namespace
} // namespace archplay::test

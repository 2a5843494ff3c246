// SPDX-License-Identifier: GPL-3.0-or-later
// The forward-pass derivation: specialised to the config, one section per layer kind, valid exports.
#include "core/derivation/Derivation.h"

#include "tests/support/TestSupport.h"

#include <algorithm>

namespace archplay::test {
namespace {

core::Derivation derive(const std::string& id) {
    const core::Analysis analysis = analyzePreset(id);
    return core::deriveForwardPass(analysis.config, analysis.plan);
}

std::string everything(const core::Derivation& d) {
    return core::toLatex(d);
}

bool balanced(const std::string& maths) {
    int depth = 0;
    for (std::size_t i = 0; i < maths.size(); ++i) {
        if (maths[i] == '\\' && i + 1 < maths.size()) {
            ++i; // \{ and \} are literal braces
            continue;
        }
        depth += maths[i] == '{' ? 1 : maths[i] == '}' ? -1 : 0;
        if (depth < 0) {
            return false;
        }
    }
    return depth == 0;
}

TEST(Derivation, LlamaIsSpecialisedToItsSizes) {
    const core::Derivation d = derive("llama-3-8b");
    const std::string text = everything(d);
    EXPECT_TRUE(contains(text, "E \\in \\mathbb{R}^{128{,}256 \\times 4096}"));
    EXPECT_TRUE(contains(text, "W_{K} \\in \\mathbb{R}^{4096 \\times 1024}"));
    EXPECT_TRUE(contains(text, "\\sqrt{128}"));
    EXPECT_TRUE(contains(text, "g(h) = \\left\\lceil h / 4 \\right\\rceil"));
    EXPECT_TRUE(contains(text, "W_{\\mathrm{down}} \\in \\mathbb{R}^{14{,}336 \\times 4096}"));
    EXPECT_TRUE(contains(text, "500{,}000^{-2j/128}"));
    EXPECT_TRUE(contains(text, "Grouped-query attention: 32 query heads share 8 key-value heads"));
    // Input, one layer kind, output.
    ASSERT_EQ(d.sections.size(), 3u);
    EXPECT_TRUE(contains(d.sections[1].title, "Layers 0–31 ($\\times 32$)"));
}

TEST(Derivation, HeterogeneousStacksGetASectionPerKind) {
    const core::Derivation gemma = derive("gemma-3-1b");
    ASSERT_EQ(gemma.sections.size(), 4u);
    EXPECT_TRUE(contains(gemma.sections[1].title, "window $W = 512$"));
    EXPECT_TRUE(contains(gemma.sections[2].title, "global"));
    EXPECT_TRUE(contains(everything(gemma), "i - 512 < j \\le i"));
    EXPECT_TRUE(contains(everything(gemma), "\\sqrt{1152}"));   // Gemma's embedding scale
    EXPECT_TRUE(contains(everything(gemma), "\\odot (1 + g)")); // Gemma's RMSNorm

    const core::Derivation v3 = derive("deepseek-v3");
    ASSERT_EQ(v3.sections.size(), 4u);
    EXPECT_TRUE(contains(v3.sections[1].title, "Layers 0–2"));
    EXPECT_TRUE(contains(v3.sections[2].title, "Layers 3–60 ($\\times 58$)"));
    const std::string text = everything(v3);
    EXPECT_TRUE(contains(text, "W^{DKV} \\in \\mathbb{R}^{7168 \\times 576}"));
    EXPECT_TRUE(contains(text, "\\sqrt{192}"));
    EXPECT_TRUE(contains(text, "p_{e} = \\sigma(s_{e})"));
    EXPECT_TRUE(contains(text, "2.5 \\sum_{e \\in \\mathcal{T}}"));
    EXPECT_TRUE(contains(text, "\\operatorname{FFN}_{\\mathrm{shared}}(x)"));
}

TEST(Derivation, OneLayerSectionIsItsKindsSectionAndStandsAlone) {
    const core::Analysis v3 = analyzePreset("deepseek-v3");
    const core::Derivation whole = core::deriveForwardPass(v3.config, v3.plan);
    const core::DerivationSection dense = core::deriveLayerSection(v3.config, v3.plan, 1);
    const core::DerivationSection moe = core::deriveLayerSection(v3.config, v3.plan, 40);
    EXPECT_EQ(dense.title, whole.sections[1].title);
    EXPECT_EQ(moe.title, whole.sections[2].title);
    // The first section defines the norm; a later kind's section on its own defines it too.
    std::string later;
    for (const core::DerivationStep& step : moe.steps) {
        for (const std::string& equation : step.equations) {
            later += equation;
        }
    }
    EXPECT_GE(moe.steps.size(), whole.sections[2].steps.size());
    EXPECT_TRUE(contains(later, "\\operatorname{RMSNorm}(x) =")) << later.substr(0, 400);
    EXPECT_TRUE(core::deriveLayerSection(v3.config, v3.plan, -1).steps.empty());
    EXPECT_TRUE(core::deriveLayerSection(v3.config, v3.plan, 61).steps.empty());

    const core::Analysis t5 = analyzePreset("t5-small");
    const core::DerivationSection encoder = core::deriveLayerSection(t5.config, t5.plan, 0);
    EXPECT_TRUE(contains(encoder.title, "Encoder layers"));
}

TEST(Derivation, GatedOutputAndSinksAreWrittenOut) {
    // Qwen3-Next: q_proj yields the queries and a gate per head (2048 x 2 x 16 x 256).
    const std::string next = everything(derive("qwen3-next-80b-a3b"));
    EXPECT_TRUE(contains(next, "\\left[\\,Q \\;\\; G\\,\\right]"));
    EXPECT_TRUE(contains(next, "W_{Q} \\in \\mathbb{R}^{2048 \\times 8192}"));
    EXPECT_TRUE(contains(next, "A_{16} \\odot \\sigma(G_{16})"));
    EXPECT_TRUE(contains(next, "W_{O} \\in \\mathbb{R}^{4096 \\times 2048}"));
    // gpt-oss: a sink logit per head joins the softmax.
    const std::string oss = everything(derive("gpt-oss-120b"));
    EXPECT_TRUE(contains(oss, "\\left[\\,S_{h} \\;\\; s_{h}\\,\\right]"));
    EXPECT_FALSE(contains(everything(derive("llama-3-8b")), "s_{h}"));
}

TEST(Derivation, EncoderDecoderHasBothStacksAndCrossAttention) {
    const core::Derivation t5 = derive("t5-small");
    const std::string text = everything(t5);
    EXPECT_TRUE(contains(text, "Encoder layers 0–5"));
    EXPECT_TRUE(contains(text, "Decoder layers 0–5"));
    EXPECT_TRUE(contains(text, "K^{c} = Z\\, W^{c}_{K}"));
    EXPECT_TRUE(contains(text, "B_{h,ij} = b_{\\mathrm{bucket}(j - i),\\, h}"));
    EXPECT_TRUE(contains(text, "512^{-1/2}"));
    EXPECT_FALSE(contains(text, "\\frac{Q_{h} K_{h}^{\\top}}")); // T5 does not scale its scores
}

TEST(Derivation, AnEncoderWithItsOwnWidthsIsWrittenWithThem) {
    // BART with encoder_attention_heads 8 and encoder_ffn_dim 2048 beside a decoder of 16 heads and 4096.
    core::ModelConfig bart = preset("bart-large");
    bart.encoderHeads = 8;
    bart.encoderIntermediateSize = 2048;
    const core::Analysis analysis = core::analyze(bart, {});
    ASSERT_TRUE(analysis.valid);
    const core::Derivation derivation = core::deriveForwardPass(analysis.config, analysis.plan);
    const auto section = [&](const std::string& title) {
        for (const core::DerivationSection& s : derivation.sections) {
            if (contains(s.title, title)) {
                return core::toMarkdown(core::Derivation{{}, {}, {s}});
            }
        }
        ADD_FAILURE() << "no section " << title;
        return std::string();
    };
    const std::string encoder = section("Encoder layers");
    EXPECT_TRUE(contains(encoder, "8 heads of $d_h = 128$")) << encoder;
    EXPECT_TRUE(contains(encoder, "width 2,048")) << encoder;
    const std::string decoder = section("Decoder layers");
    EXPECT_TRUE(contains(decoder, "16 heads of $d_h = 64$")) << decoder;
    EXPECT_TRUE(contains(decoder, "width 4,096")) << decoder;
}

TEST(Derivation, EncoderOnlyEndsWithoutAHead) {
    const std::string text = everything(derive("bert-base-uncased"));
    EXPECT_TRUE(contains(text, "E^{\\mathrm{type}}"));
    EXPECT_TRUE(contains(text, "\\operatorname{pool}(X)"));
    EXPECT_TRUE(contains(text, "No mask"));
    EXPECT_FALSE(contains(text, "Next-token distribution"));
}

TEST(Derivation, EveryPresetGivesBalancedMathsAndBothExports) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::Derivation d = derive(preset.info.id);
        for (const std::string& maths : core::mathFragments(d)) {
            EXPECT_TRUE(balanced(maths)) << preset.info.id << ": " << maths;
            EXPECT_FALSE(maths.empty()) << preset.info.id;
        }
        const std::string latex = core::toLatex(d);
        const std::string markdown = core::toMarkdown(d);
        EXPECT_EQ(std::count(latex.begin(), latex.end(), '['), std::count(latex.begin(), latex.end(), ']'));
        EXPECT_TRUE(contains(latex, "\\section*{"));
        EXPECT_TRUE(contains(markdown, "$$\n"));
        EXPECT_EQ(std::count(markdown.begin(), markdown.end(), '$') % 2, 0) << preset.info.id;
    }
}

} // namespace
} // namespace archplay::test

// SPDX-License-Identifier: GPL-3.0-or-later
// The KV cache view's figure, derived whole in core: its text, curves, markers and fits.
#include "core/report/KvFigure.h"

#include "core/util/Format.h"
#include "tests/support/TestSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace archplay::test {
namespace {

bool anyNote(const core::KvFigure& figure, const std::string& part) {
    return std::any_of(figure.notes.begin(), figure.notes.end(),
                       [&](const std::string& note) { return contains(note, part); });
}

bool hasMarker(const std::vector<core::KvMarker>& markers, double value, const std::string& label) {
    return std::any_of(markers.begin(), markers.end(),
                       [&](const core::KvMarker& m) { return m.value == value && m.label == label; });
}

TEST(KvFigure, SaysWhatWindowsSaveWithEachLayerCountedOnce) {
    // Gemma 2 9B: 42 layers alternating sliding (4,096) and global; at 8,192 tokens the windows bite.
    const core::Analysis analysis = analyzePreset("gemma-2-9b", scenarioAt(8192));
    const core::KvFigure figure = core::kvFigure(analysis);
    EXPECT_TRUE(figure.noCache.empty());
    EXPECT_EQ(figure.headline, core::binaryBytes(analysis.kv.totalBytes));
    EXPECT_TRUE(anyNote(figure, "Windows hold 21 of 42 layers to 4,096 tokens")) << figure.notes.front();
    ASSERT_EQ(figure.comparisons.size(), 1u);
    EXPECT_EQ(figure.comparisons.front().label, "bf16 if every layer were global");
    const auto bf16 = std::find_if(figure.curves.begin(), figure.curves.end(),
                                   [](const core::KvCurve& curve) { return curve.dtype == core::DType::BF16; });
    ASSERT_NE(bf16, figure.curves.end());
    EXPECT_GT(figure.comparisons.front().curve.bytes.back(), bf16->bytes.back()) << "every layer global caches more";
    EXPECT_TRUE(hasMarker(figure.lengthMarkers, 4096, "W 4K"));
    EXPECT_TRUE(hasMarker(figure.lengthMarkers, 8192, "context 8K"));
    // Within the window nothing is saved, and the figure says so.
    const core::KvFigure within = core::kvFigure(analyzePreset("gemma-2-9b", scenarioAt(2048)));
    EXPECT_TRUE(anyNote(within, "Windows of 4,096 tokens on 21 of 42 layers do not bite at S = 2,048"));
}

TEST(KvFigure, SaysWhatTheLatentSavesAndComparesItsExpandedCurve) {
    const core::Analysis analysis = analyzePreset("deepseek-v3");
    const core::KvFigure figure = core::kvFigure(analysis);
    const double ratio = double(analysis.kv.expandedBytesPerToken) / double(analysis.kv.bytesPerToken);
    EXPECT_TRUE(anyNote(figure, fmt::format("({:.1f}× less)", ratio)));
    ASSERT_EQ(figure.comparisons.size(), 1u);
    EXPECT_EQ(figure.comparisons.front().label, "bf16 per-head K and V (MLA expanded)");
}

TEST(KvFigure, ANoteForContextBeyondTheModelsAndOnePerLayerOfAUniformStack) {
    const core::Analysis analysis = analyzePreset("llama-3-8b", scenarioAt(16384));
    const core::KvFigure figure = core::kvFigure(analysis);
    EXPECT_TRUE(anyNote(figure, "S = 16,384 is beyond the model's context length of 8,192 tokens."));
    EXPECT_TRUE(contains(figure.headlineDetail, "at S = 16,384 tokens × batch 1, bf16 cache · 128 KiB per token"));
    EXPECT_TRUE(contains(figure.headlineDetail, "(4.00 KiB per layer)")) << figure.headlineDetail;
    EXPECT_TRUE(figure.comparisons.empty());
    ASSERT_EQ(figure.fits.size(), figure.fitTexts.size());
    EXPECT_FALSE(figure.fits.empty());
    // Each precision's curve runs over the same lengths, past the model's context.
    ASSERT_FALSE(figure.curves.empty());
    EXPECT_GE(figure.curves.front().lengths.back(), 2u * 16384);
}

TEST(KvFigure, AnEncoderKeepsNoCacheAndAnInvalidModelShowsNothing) {
    const core::KvFigure bert = core::kvFigure(analyzePreset("bert-base-uncased"));
    EXPECT_FALSE(bert.noCache.empty());
    EXPECT_TRUE(bert.curves.empty());
    EXPECT_TRUE(bert.fits.empty());

    core::ModelConfig broken = preset("llama-3-8b");
    broken.numHeads = 0;
    const core::KvFigure none = core::kvFigure(core::analyze(broken, {}));
    EXPECT_TRUE(none.noCache.empty() && none.subtitle.empty() && none.curves.empty() && none.notes.empty());
}

} // namespace
} // namespace archplay::test

// SPDX-License-Identifier: GPL-3.0-or-later
// What the compute, memory and speed views draw, as core computes it: the FLOPs curve against
// position, the FLOPs by component and by layer kind, one GPU's memory stacks, the roofline's points,
// and the explanation by topic.
#include "core/report/Costs.h"
#include "core/report/Exports.h"
#include "tests/support/TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace archplay::test {
namespace {

const char* const kPresets[] = {"llama-3-8b",         "gemma-2-9b",    "gemma-3-27b",       "deepseek-v3",
                                "deepseek-v3.2-exp",  "t5-small",      "bart-base",         "bert-base-uncased",
                                "qwen3-next-80b-a3b", "llama-4-scout", "mixtral-8x7b-v0.1", "granite-4.0-h-small",
                                "falcon-h1-7b",       "gpt-oss-120b",  "minimax-text-01"};

core::TokenFlops at(const std::vector<core::TokenFlops>& curve, std::uint64_t position) {
    for (const core::TokenFlops& point : curve) {
        if (point.position == position) {
            return point;
        }
    }
    ADD_FAILURE() << "no point at " << position;
    return {};
}

TEST(FlopsCurve, AtTheScenarioPositionItIsTheComputeReport) {
    for (const char* id : kPresets) {
        for (const std::uint64_t context :
             {std::uint64_t{1}, std::uint64_t{512}, std::uint64_t{4096}, std::uint64_t{32768}}) {
            const core::Analysis a = analyzePreset(id, scenarioAt(context));
            const core::ComputeReport& c = a.compute;
            const std::vector<core::TokenFlops> curve =
                core::flopsPerTokenCurve(c, core::flopsCurvePositions(c, 1u << 20, context));
            const core::TokenFlops point = at(curve, context);
            const std::string name = std::string(id) + " at " + std::to_string(context);
            EXPECT_EQ(point.weights, double(c.weights)) << name;
            EXPECT_EQ(point.state, double(c.state)) << name;
            if (a.config.hasDecoder()) {
                EXPECT_EQ(point.attention, double(c.attention)) << name;
                EXPECT_EQ(point.total, double(c.perToken)) << name;
            } else {
                // An encoder's attention is averaged over S and rounded to whole FLOPs by compute().
                EXPECT_EQ(std::llround(point.attention), static_cast<long long>(c.attention)) << name;
            }
        }
    }
}

TEST(FlopsCurve, WeightsAreFlatAttentionGrowsAndAWindowFlattensIt) {
    // Llama 3: every layer global, attention linear in the position (32 layers x 4 x 32 x 128 per key).
    const core::Analysis llama = analyzePreset("llama-3-8b");
    const std::vector<core::TokenFlops> dense =
        core::flopsPerTokenCurve(llama.compute, core::flopsCurvePositions(llama.compute, 8192, 4096));
    for (std::size_t i = 1; i < dense.size(); ++i) {
        EXPECT_EQ(dense[i].weights, dense[0].weights);
        EXPECT_GT(dense[i].attention, dense[i - 1].attention);
    }
    EXPECT_EQ(core::flopsPerTokenCurve(llama.compute, {1000}).front().attention, 32.0 * 4 * 32 * 128 * 1000);

    // Mistral 7B v0.1: a 4,096-token window on every layer, so attention stops growing there.
    const core::Analysis mistral = analyzePreset("mistral-7b-v0.1");
    const std::vector<std::uint64_t> positions = core::flopsCurvePositions(mistral.compute, 32768, 4096);
    EXPECT_TRUE(std::binary_search(positions.begin(), positions.end(), 4096u));
    const std::vector<core::TokenFlops> windowed = core::flopsPerTokenCurve(mistral.compute, positions);
    EXPECT_LT(at(windowed, 2048).attention, at(windowed, 4096).attention);
    EXPECT_EQ(at(windowed, 4096).attention, at(windowed, 32768).attention);

    // Gemma 2: half the layers slide over 4,096 keys; past the window only the global half grows.
    const core::Analysis gemma = analyzePreset("gemma-2-9b");
    const std::vector<core::TokenFlops> hybrid =
        core::flopsPerTokenCurve(gemma.compute, core::flopsCurvePositions(gemma.compute, 16384, 4096));
    const double below = at(hybrid, 4096).attention - at(hybrid, 2048).attention;
    const double above = at(hybrid, 16384).attention - at(hybrid, 8192).attention;
    EXPECT_DOUBLE_EQ(above / 8192, below / 2048 / 2) << "the growth per token halves past the window";
}

TEST(FlopsCurve, ChunkEdgesAreExactAndTheSourceIsFlat) {
    // Llama 4 Scout: chunked layers see at most their chunk; the token after a chunk sees itself alone.
    const core::Analysis scout = analyzePreset("llama-4-scout");
    const std::vector<std::uint64_t> positions = core::flopsCurvePositions(scout.compute, 1u << 16, 4096);
    EXPECT_TRUE(std::binary_search(positions.begin(), positions.end(), 8192u));
    EXPECT_TRUE(std::binary_search(positions.begin(), positions.end(), 8193u));
    const std::vector<core::TokenFlops> curve = core::flopsPerTokenCurve(scout.compute, positions);
    EXPECT_GT(at(curve, 8192).attention, at(curve, 8193).attention);

    // T5: cross-attention over the source tokens costs the same at every decoder position.
    const core::Analysis t5 = analyzePreset("t5-small", scenarioAt(512));
    const core::TokenFlops first = core::flopsPerTokenCurve(t5.compute, {1}).front();
    EXPECT_GT(first.attention, 0) << "one self key and 512 source keys";
    EXPECT_EQ(positions.front(), 1u);
    EXPECT_TRUE(std::is_sorted(positions.begin(), positions.end()));
    EXPECT_EQ(std::adjacent_find(positions.begin(), positions.end()), positions.end()) << "no duplicates";
}

TEST(FlopsParts, ComponentsAndLayerKindsSumToTheToken) {
    for (const char* id : kPresets) {
        const core::Analysis a = analyzePreset(id);
        const core::ComputeReport& c = a.compute;
        const std::vector<core::FlopsPart> parts = core::flopsByComponent(c);
        std::uint64_t sum = 0;
        for (const core::FlopsPart& part : parts) {
            EXPECT_GT(part.flops, 0u) << id << " " << part.name;
            sum += part.flops;
        }
        EXPECT_EQ(sum, c.perToken) << id;
        const auto attention = std::count_if(
            parts.begin(), parts.end(), [](const core::FlopsPart& p) { return p.kind == core::FlopsKind::Attention; });
        EXPECT_EQ(attention, c.attention > 0 ? 1 : 0) << id;

        const std::vector<core::KindFlops> kinds = core::flopsByLayerKind(a.config, c);
        std::uint64_t weights = 0, state = 0, total = 0;
        long long kindAttention = 0;
        for (const core::KindFlops& kind : kinds) {
            EXPECT_EQ(kind.total, kind.weights + kind.attention + kind.state) << id << " " << kind.name;
            weights += kind.weights;
            state += kind.state;
            total += kind.total;
            kindAttention += static_cast<long long>(kind.attention);
        }
        EXPECT_EQ(weights, c.weights) << id;
        EXPECT_EQ(state, c.state) << id;
        // Encoder layers round their averaged attention each; decoders are exact.
        EXPECT_LE(std::llabs(kindAttention - static_cast<long long>(c.attention)), static_cast<long long>(kinds.size()))
            << id;
        if (a.config.hasDecoder()) {
            EXPECT_EQ(total, c.perToken) << id;
        }
    }
    // T5's encoder runs per source token: the table by kind holds the decoder and the head only.
    const core::Analysis t5 = analyzePreset("t5-small");
    for (const core::KindFlops& kind : core::flopsByLayerKind(t5.config, t5.compute)) {
        EXPECT_EQ(kind.name.find("encoder"), std::string::npos) << kind.name;
    }
}

TEST(MemoryStacks, ArePerGpuPartsOfTheRowsAgainstTheDevice) {
    for (const char* id : kPresets) {
        for (const std::uint64_t gpus : {std::uint64_t{1}, std::uint64_t{8}}) {
            core::Scenario scenario;
            scenario.gpuCount = gpus; // data parallel: every model's heads divide TP 1
            const core::Analysis a = analyzePreset(id, scenario);
            const core::MemoryStack serving = core::servingStack(a);
            const std::string name = std::string(id) + " on " + std::to_string(gpus);
            std::uint64_t sum = 0;
            for (const core::MemorySegment& segment : serving.segments) {
                sum += segment.bytes;
                EXPECT_NE(core::findRow(core::servingMemoryRows(a), segment.rowKey), nullptr) << segment.rowKey;
            }
            // Each part rounded up on its own: at most a byte per part over the even split.
            EXPECT_GE(sum, serving.totalBytes) << name;
            EXPECT_LE(sum, serving.totalBytes + serving.segments.size()) << name;
            EXPECT_EQ(serving.capacityBytes, a.scenario.gpu.memoryBytes());
            EXPECT_EQ(serving.fits, a.serving.fits) << name;
            EXPECT_EQ(serving.fewestGpus, a.serving.gpusNeeded) << name;
            EXPECT_EQ(serving.fits, serving.totalBytes <= serving.capacityBytes) << name;
            EXPECT_EQ(serving.segments.front().part, core::MemoryPart::Weights);
            EXPECT_EQ(serving.segments.front().bytes, (a.weightBytes + gpus - 1) / gpus) << name;

            const core::MemoryStack training = core::trainingStack(a);
            sum = 0;
            for (const core::MemorySegment& segment : training.segments) {
                sum += segment.bytes;
                EXPECT_NE(core::findRow(core::trainingMemoryRows(a), segment.rowKey), nullptr) << segment.rowKey;
            }
            EXPECT_EQ(sum, a.training.gpuTotalBytes) << name;
            EXPECT_EQ(training.fewestGpus, a.trainingGpusNeeded) << name;
            for (const core::MemoryStack* stack : {&serving, &training}) {
                EXPECT_FALSE(stack->shortVerdict.empty()) << name;
                EXPECT_EQ(stack->verdict.rfind(stack->shortVerdict, 0), 0u) << "a short verdict is its first clause";
            }
        }
    }
    // Llama 3 8B in bf16 fits one 80 GiB H100 for serving, not for training with Adam on one GPU.
    const core::Analysis llama = analyzePreset("llama-3-8b");
    EXPECT_TRUE(core::servingStack(llama).fits);
    EXPECT_EQ(core::servingStack(llama).fewestGpus, 1u);
    const core::MemoryStack training = core::trainingStack(llama);
    EXPECT_FALSE(training.fits);
    EXPECT_GT(training.fewestGpus, 1u);
    EXPECT_NE(training.verdict.find("needs"), std::string::npos) << training.verdict;

    // Qwen3-Next under ZeRO-1 keeps its whole weights and gradients on every GPU: no number of GPUs
    // holds it, and the reason is not its activations.
    const core::Analysis next = analyzePreset("qwen3-next-80b-a3b");
    ASSERT_EQ(next.trainingGpusNeeded, 0u);
    EXPECT_NE(core::trainingStack(next).verdict.find("ZeRO-1 every GPU keeps"), std::string::npos)
        << core::trainingStack(next).verdict;
    EXPECT_EQ(core::findRow(core::trainingMemoryRows(next), "training_gpus_needed")->detail.find("activations"),
              std::string::npos);
}

TEST(RooflinePoints, LieOnTheRoofAndTheRoofTurnsAtTheRidge) {
    for (const char* id : kPresets) {
        const core::Analysis a = analyzePreset(id);
        const core::RooflineReport& r = a.speed;
        for (const core::DecodeStep& step : r.curve) {
            const core::RooflinePoint point = core::rooflinePoint(step);
            EXPECT_NEAR(point.flopsPerSecond / core::attainableFlops(r, point.intensity), 1.0, 1e-9) << id;
            EXPECT_EQ(point.computeBound, step.computeBound);
        }
        const core::RooflinePoint prefill = core::prefillPoint(r);
        EXPECT_NEAR(prefill.flopsPerSecond / core::attainableFlops(r, prefill.intensity), 1.0, 1e-9) << id;
        EXPECT_DOUBLE_EQ(core::attainableFlops(r, r.ridge), r.peakFlops) << id;
        EXPECT_DOUBLE_EQ(core::attainableFlops(r, r.ridge / 10), r.bandwidth * r.ridge / 10) << id;
        EXPECT_DOUBLE_EQ(core::attainableFlops(r, r.ridge * 10), r.peakFlops) << id;
    }
}

TEST(SpeedRows, AnEncoderOnlyModelHasNoDecodeToTime) {
    const core::Analysis bert = analyzePreset("bert-base-uncased");
    EXPECT_FALSE(core::noDecodeNote(bert.config).empty());
    const std::vector<core::SummaryRow> rows = core::speedRows(bert);
    for (const core::SummaryRow& row : rows) {
        EXPECT_EQ(row.label.find("Decode"), std::string::npos) << row.label;
        EXPECT_EQ(row.key.find("decode"), std::string::npos) << row.key;
        ASSERT_FALSE(row.notes.empty());
        EXPECT_EQ(row.notes.front(), core::speedBoundLabel());
    }
    EXPECT_NE(core::findRow(rows, "prefill_seconds"), nullptr);
    const std::string explained = core::toMarkdown(core::explainCosts(bert, core::CostTopic::Speed));
    EXPECT_EQ(explained.find("Decode step"), std::string::npos);

    const core::Analysis llama = analyzePreset("llama-3-8b");
    EXPECT_TRUE(core::noDecodeNote(llama.config).empty());
    EXPECT_NE(core::findRow(core::speedRows(llama), "decode_tokens_per_s"), nullptr);
}

TEST(ExplainCosts, EachTopicIsOneSectionOfTheWhole) {
    for (const char* id : {"llama-3-8b", "t5-small", "deepseek-v3"}) {
        const core::Analysis a = analyzePreset(id);
        const core::Derivation whole = core::explainCosts(a);
        ASSERT_EQ(whole.sections.size(), 3u);
        for (const core::CostTopic topic :
             {core::CostTopic::Compute, core::CostTopic::Memory, core::CostTopic::Speed}) {
            const core::Derivation part = core::explainCosts(a, topic);
            ASSERT_EQ(part.sections.size(), 1u);
            EXPECT_EQ(part.sections.front().title, whole.sections[static_cast<std::size_t>(topic)].title);
            EXPECT_EQ(part.notation, whole.notation);
        }
    }
    // T5's attention step lists the decoder's kinds, with cross-attention, and they add up.
    const core::Analysis t5 = analyzePreset("t5-small", scenarioAt(512));
    const std::string compute = core::toMarkdown(core::explainCosts(t5, core::CostTopic::Compute));
    // The encoder's layers attend both ways and run once per source token: not in a token's attention.
    EXPECT_EQ(compute.find("bidirectional"), std::string::npos) << compute;
    EXPECT_NE(compute.find("global + cross"), std::string::npos) << compute;
    EXPECT_NE(compute.find("\\times 512"), std::string::npos) << "the 512 source keys: " << compute;
}

TEST(CostViews, AreViewsFiguresAndReportSections) {
    for (const auto& [name, kind] :
         {std::pair{"compute", core::ViewKind::Compute}, std::pair{"memory", core::ViewKind::Memory},
          std::pair{"speed", core::ViewKind::Speed}}) {
        EXPECT_EQ(core::parseViewKind(name), kind);
        const std::optional<core::ExportWhat> what = core::parseExportWhat(name);
        ASSERT_TRUE(what) << name;
        EXPECT_EQ(core::viewFor(*what), kind);
        EXPECT_TRUE(
            core::unsupportedReason(*what, core::ExportFormat::Png, analyzePreset("bert-base-uncased")).empty());
        EXPECT_FALSE(core::unsupportedReason(*what, core::ExportFormat::Csv, analyzePreset("llama-3-8b")).empty());
    }
    const core::Analysis llama = analyzePreset("llama-3-8b");
    std::vector<core::ReportPart> parts;
    for (const core::ReportSection& section : core::reportSections(llama, 0)) {
        parts.push_back(section.part);
    }
    for (const core::ReportPart part : {core::ReportPart::Compute, core::ReportPart::Memory, core::ReportPart::Speed,
                                        core::ReportPart::CostExplanation}) {
        EXPECT_NE(std::find(parts.begin(), parts.end(), part), parts.end());
    }
    const std::string md =
        core::reportMarkdown(llama, presetReportInfo("llama-3-8b"), 0, {{core::ViewKind::Speed, "fig/speed.png"}});
    EXPECT_NE(md.find("![Speed](fig/speed.png)"), std::string::npos);
    EXPECT_NE(md.find("## What it costs, explained"), std::string::npos);
    EXPECT_NE(md.find(core::findRow(core::computeRows(llama), "flops_per_token")->value), std::string::npos);
    EXPECT_NE(md.find("### Training"), std::string::npos);
}

} // namespace
} // namespace archplay::test

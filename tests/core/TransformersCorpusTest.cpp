// SPDX-License-Identifier: GPL-3.0-or-later
// What transformers itself built: 330 configs of 55 families with their shape fields redrawn at
// random, each built by transformers 5.17 on the meta device, a third run forward on a GPU with the
// cache measured (tests/reference/transformers/, its README). Every config counts exactly, tensor by
// tensor, or is refused with a reason naming a field; every measured cache equals the transformers
// allocator's figure to the byte.
#include "core/params/Tensors.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

const std::filesystem::path kCorpusDir = std::filesystem::path(kReferenceDir) / "transformers";

const nlohmann::json& truth() {
    static const nlohmann::json json = [] {
        std::ifstream in(kCorpusDir / "truth.json");
        return nlohmann::json::parse(in, nullptr, false);
    }();
    return json;
}

std::string familyOf(const std::string& file) {
    return file.substr(0, file.rfind('-'));
}

/// Families archplay refuses: LongCat-Flash's zero-computation experts and dual sub-layers are not
/// modelled.
const std::set<std::string> kRefusedFamilies = {"longcat_flash"};

/// The class whose count archplay follows: the causal LM, the seq2seq LM, the text model of a
/// multimodal wrapper; BERT's published convention is BertModel with its pooler.
const nlohmann::json* countedModel(const std::string& file, const nlohmann::json& entry) {
    if (familyOf(file) == "bert") {
        return &entry["base"];
    }
    for (const char* key : {"causal", "seq2seq", "text_causal"}) {
        if (entry.contains(key)) {
            return &entry[key];
        }
    }
    return nullptr; // transformers itself refused the config
}

core::ImportResult importCorpusConfig(const std::string& file) {
    return core::importConfigFile(kCorpusDir / "configs" / file);
}

bool refusedWithReason(const core::ImportResult& imported) {
    return std::any_of(imported.diagnostics.begin(), imported.diagnostics.end(), [](const core::Diagnostic& d) {
        return d.severity == core::Severity::Error && !d.field.empty() && !d.message.empty();
    });
}

/// transformers 5.17 ties T5's head to the shared embedding even when the config says not to; the
/// t5-v1.1 checkpoints store it apart, and archplay follows the checkpoint.
std::uint64_t checkpointTotal(const std::string& file, const nlohmann::json& model) {
    auto total = model["total"].get<std::uint64_t>();
    if (familyOf(file) == "t5") {
        std::ifstream in(kCorpusDir / "configs" / file);
        const nlohmann::json config = nlohmann::json::parse(in);
        if (!config.value("tie_word_embeddings", true)) {
            total += model["tensors"]["shared.weight"][1].get<std::uint64_t>();
        }
    }
    return total;
}

TEST(TransformersCorpus, EveryConfigCountsExactlyOrIsRefusedWithAReason) {
    ASSERT_TRUE(truth().is_object());
    int exact = 0;
    std::set<std::string> refusedFamilies;
    for (const auto& [file, entry] : truth().items()) {
        const nlohmann::json* model = countedModel(file, entry);
        if (!model) {
            continue;
        }
        const core::ImportResult imported = importCorpusConfig(file);
        const std::string family = familyOf(file);
        if (!imported.config || !imported.config->exact()) {
            EXPECT_TRUE(kRefusedFamilies.contains(family)) << file << " is refused";
            EXPECT_TRUE(refusedWithReason(imported)) << file << " is refused without a reason naming a field";
            refusedFamilies.insert(family);
            continue;
        }
        const core::Analysis analysis = core::analyze(*imported.config, {});
        ASSERT_TRUE(analysis.valid) << file;
        EXPECT_EQ(analysis.params.total, checkpointTotal(file, *model)) << file;
        exact += analysis.params.total == checkpointTotal(file, *model) ? 1 : 0;
    }
    // Every family on the list is refused (the list does not outlive a family archplay learns to count).
    for (const std::string& family : kRefusedFamilies) {
        EXPECT_TRUE(refusedFamilies.contains(family)) << family << " is counted now: take it off the list";
    }
    EXPECT_EQ(exact, 321); // 330 less LongCat-Flash's 6, less the 3 transformers itself refused
}

/// "[count, elements, [shape]]" of a folded tensor, as truth.json writes them.
nlohmann::json folded(const core::FoldedTensor& tensor) {
    nlohmann::json shape = nlohmann::json::array();
    for (core::Checked d : tensor.shape) {
        shape.push_back(d.value());
    }
    return nlohmann::json::array({tensor.count, tensor.elements.value(), shape});
}

TEST(TransformersCorpus, EveryTensorHasTransformersNameShapeAndCount) {
    int checked = 0;
    for (const auto& [file, entry] : truth().items()) {
        const nlohmann::json* model = countedModel(file, entry);
        const core::ImportResult imported = importCorpusConfig(file);
        if (!model || !imported.config || !imported.config->exact() || familyOf(file) == "t5") {
            continue; // T5's tie quirk: the lm_head transformers leaves out is checked above
        }
        const core::Analysis analysis = core::analyze(*imported.config, {});
        ASSERT_TRUE(analysis.valid) << file;
        nlohmann::json listed = nlohmann::json::object();
        for (const core::FoldedTensor& tensor :
             core::foldedTensors(analysis.config, analysis.plan, core::TensorLayout::Transformers)) {
            listed[tensor.key] = folded(tensor);
        }
        const nlohmann::json& built = (*model)["tensors"];
        for (const auto& [key, tensor] : built.items()) {
            EXPECT_EQ(listed.value(key, nlohmann::json()), tensor) << file << ": " << key;
        }
        for (const auto& [key, tensor] : listed.items()) {
            EXPECT_TRUE(built.contains(key)) << file << ": archplay lists " << key << " " << tensor.dump();
        }
        ++checked;
    }
    EXPECT_EQ(checked, 315); // the 321 counted, less T5's 6
}

TEST(TransformersCorpus, T5FollowsTheCheckpointWhereTransformersTiesTheHead) {
    // t5-004 is untied: transformers 5.17 builds no lm_head; the t5-v1.1 checkpoints store one.
    const core::ImportResult imported = importCorpusConfig("t5-004.json");
    ASSERT_TRUE(imported.config);
    const core::Analysis analysis = core::analyze(*imported.config, {});
    const nlohmann::json& built = truth()["t5-004.json"]["seq2seq"]["tensors"];
    EXPECT_FALSE(built.contains("lm_head.weight"));
    std::uint64_t head = 0;
    for (const core::FoldedTensor& tensor :
         core::foldedTensors(analysis.config, analysis.plan, core::TensorLayout::Transformers)) {
        if (tensor.key == "lm_head.weight") {
            head = tensor.elements.value();
        } else {
            EXPECT_EQ(folded(tensor), built.value(tensor.key, nlohmann::json())) << tensor.key;
        }
    }
    EXPECT_EQ(head, built["shared.weight"][1].get<std::uint64_t>());
    // ... and says so.
    EXPECT_TRUE(std::any_of(analysis.diagnostics.begin(), analysis.diagnostics.end(), [](const core::Diagnostic& d) {
        return d.field == "tie_word_embeddings" && d.message.find("t5-v1.1") != std::string::npos;
    }));
}

/// The attention kind of every decoder layer of a config read from `text`.
std::vector<core::LayerAttention> windows(const std::string& text) {
    const core::ImportResult imported = core::importConfigText(text);
    EXPECT_TRUE(imported.config) << text;
    std::vector<core::LayerAttention> kinds;
    for (const core::LayerPlan& layer : core::planLayers(imported.config.value_or(core::ModelConfig{})).layers) {
        kinds.push_back(layer.attention);
    }
    return kinds;
}

TEST(TransformersCorpus, EachQwenFamilyKeepsItsOwnWindowRule) {
    using core::LayerAttention::Global;
    using core::LayerAttention::Sliding;
    // Qwen2 and Qwen3: layers from max_window_layers on (configuration_qwen2.py).
    EXPECT_EQ(windows(R"({"model_type": "qwen3", "num_hidden_layers": 4, "use_sliding_window": true,
                          "sliding_window": 64, "max_window_layers": 2})"),
              (std::vector{Global, Global, Sliding, Sliding}));
    // A null window is no window, whatever use_sliding_window says.
    EXPECT_EQ(windows(R"({"model_type": "qwen3", "num_hidden_layers": 3, "use_sliding_window": true,
                          "sliding_window": null, "max_window_layers": 0})"),
              (std::vector{Global, Global, Global}));
    // Qwen2-MoE: the even layers below max_window_layers (Qwen2MoeConfig.__post_init__).
    EXPECT_EQ(windows(R"({"model_type": "qwen2_moe", "num_hidden_layers": 5, "use_sliding_window": true,
                          "sliding_window": 64, "max_window_layers": 3})"),
              (std::vector{Sliding, Global, Sliding, Global, Global}));
    // Qwen3-MoE: every layer; it has no max_window_layers.
    EXPECT_EQ(windows(R"({"model_type": "qwen3_moe", "num_hidden_layers": 3, "use_sliding_window": true,
                          "sliding_window": 64, "max_window_layers": 2})"),
              (std::vector{Sliding, Sliding, Sliding}));
}

/// What the cache held at `tokens` tokens, less the bookkeeping scalar of the sliding layers.
std::uint64_t measuredCacheBytes(const nlohmann::json& measured) {
    const nlohmann::json& names = measured["by_name"];
    const std::uint64_t bookkeeping =
        names.contains("_sliding_window_tensor") ? names["_sliding_window_tensor"].get<std::uint64_t>() : 0;
    return measured["bytes"].get<std::uint64_t>() - bookkeeping;
}

TEST(TransformersCorpus, TheTransformersAllocatorHoldsWhatEveryMeasuredCacheHeld) {
    int checked = 0;
    for (const auto& [file, entry] : truth().items()) {
        if (!entry.contains("cache_bf16")) {
            continue;
        }
        const core::ImportResult imported = importCorpusConfig(file);
        ASSERT_TRUE(imported.config && imported.config->exact()) << file;
        for (const auto& [tokens, measured] : entry["cache_bf16"].items()) {
            core::Scenario scenario = scenarioAt(std::stoull(tokens));
            scenario.kvAllocator = core::KvAllocator::Transformers;
            const core::Analysis analysis = core::analyze(*imported.config, scenario);
            ASSERT_TRUE(analysis.valid) << file;
            EXPECT_EQ(analysis.kv.totalBytes, measuredCacheBytes(measured)) << file << " at " << tokens << " tokens";
            ++checked;
        }
    }
    EXPECT_EQ(checked, 3 * 96); // 96 configs measured at 16, 48 and 200 tokens
}

} // namespace
} // namespace archplay::test

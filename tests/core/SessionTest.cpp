// SPDX-License-Identifier: GPL-3.0-or-later
// Session files and the one JSON form of a scenario.
#include "core/io/Session.h"

#include "core/report/ReportText.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::test {
namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(Session, CarriesASchemaVersionAndTheScenario) {
    core::Session session;
    session.scenario.batch = 3;
    const std::string json = core::sessionToJson(session, "1.2.3");
    EXPECT_TRUE(contains(json, "\"schema_version\": 1"));
    EXPECT_TRUE(core::looksLikeSession(json));
    const core::SessionReadResult read = core::sessionFromJson(json);
    ASSERT_TRUE(read.session.has_value());
    EXPECT_EQ(read.session->scenario.batch, 3u);
    EXPECT_FALSE(read.session->scenario.stateDType.has_value());
    session.scenario.stateDType = core::DType::BF16;
    const core::SessionReadResult withState = core::sessionFromJson(core::sessionToJson(session, "1.2.3"));
    ASSERT_TRUE(withState.session.has_value());
    EXPECT_EQ(withState.session->scenario.stateDType, core::DType::BF16);
    // The cache's allocator travels with the scenario; an older session without it reads the architecture's.
    EXPECT_EQ(read.session->scenario.kvAllocator, core::KvAllocator::Architecture);
    session.scenario.kvAllocator = core::KvAllocator::Transformers;
    const std::string held = core::sessionToJson(session, "1.2.3");
    EXPECT_TRUE(contains(held, "\"kv_allocator\": \"transformers\""));
    EXPECT_EQ(core::sessionFromJson(held).session->scenario.kvAllocator, core::KvAllocator::Transformers);
    const core::SessionReadResult vllm = core::sessionFromJson(replaced(held, "\"transformers\"", "\"sglang\""));
    EXPECT_FALSE(vllm.session.has_value());
    ASSERT_FALSE(vllm.diagnostics.empty());
    EXPECT_EQ(vllm.diagnostics.front().field, "kv_allocator");

    const std::string newer = replaced(json, "\"schema_version\": 1", "\"schema_version\": 99");
    const core::SessionReadResult rejected = core::sessionFromJson(newer);
    EXPECT_FALSE(rejected.session.has_value());
    ASSERT_FALSE(rejected.diagnostics.empty());
    EXPECT_EQ(rejected.diagnostics.front().field, "schema_version");

    // A session of an older archplay names its device by memory size: the first built-in of that size.
    nlohmann::json legacy = nlohmann::json::parse(json);
    legacy["scenario"].erase("gpu");
    legacy["scenario"]["gpu_memory_gib"] = 141;
    const core::SessionReadResult h200 = core::sessionFromJson(legacy.dump());
    ASSERT_TRUE(h200.session.has_value());
    EXPECT_EQ(h200.session->scenario.gpu.id, "h200");
    legacy["scenario"]["gpu_memory_gib"] = 100;
    const core::SessionReadResult odd = core::sessionFromJson(legacy.dump());
    EXPECT_FALSE(odd.session.has_value());
    ASSERT_FALSE(odd.diagnostics.empty());
    EXPECT_EQ(odd.diagnostics.front().field, "gpu_memory_gib");
    // A device the user added travels with the session; a device without bandwidth is refused.
    core::Session custom = session;
    custom.scenario.gpu = core::defaultGpu();
    custom.scenario.gpu.id = "lab-card";
    custom.scenario.gpu.builtin = false;
    const core::SessionReadResult lab = core::sessionFromJson(core::sessionToJson(custom, "1.2.3"));
    ASSERT_TRUE(lab.session.has_value());
    EXPECT_EQ(lab.session->scenario.gpu, custom.scenario.gpu);
    legacy = nlohmann::json::parse(json);
    legacy["scenario"]["gpu"]["bandwidth_gb_s"] = 0;
    const core::SessionReadResult slow = core::sessionFromJson(legacy.dump());
    EXPECT_FALSE(slow.session.has_value());
    ASSERT_FALSE(slow.diagnostics.empty());
    EXPECT_EQ(slow.diagnostics.front().field, "gpu.bandwidth_gb_s");
}

TEST(Session, SchemaVersionsAreReadWholeAndMustBePositive) {
    const std::string json = core::sessionToJson(core::Session{}, "1.2.3");
    // 2^32 + 1 was cut to 32 bits and read as 1; 0 and negative versions were accepted.
    for (const char* version : {"4294967297", "18446744073709551615", "0", "-5", "-9223372036854775808"}) {
        const std::string edited =
            replaced(json, "\"schema_version\": 1", std::string("\"schema_version\": ") + version);
        ASSERT_NE(edited, json);
        const core::SessionReadResult read = core::sessionFromJson(edited);
        EXPECT_FALSE(read.session.has_value()) << version;
        ASSERT_FALSE(read.diagnostics.empty()) << version;
        EXPECT_EQ(read.diagnostics.front().field, "schema_version");
        EXPECT_TRUE(contains(read.diagnostics.front().message, version)) << read.diagnostics.front().message;
    }
}

TEST(Session, DeeplyNestedJsonIsRefusedNotRecursedInto) {
    // 300,000 levels inside the config overflowed the stack before; every JSON entry point shares the limit.
    const std::string deep = R"({"archplay_session": {"schema_version": 1}, "config": )" + std::string(300000, '[') +
                             std::string(300000, ']') + "}";
    const core::SessionReadResult read = core::sessionFromJson(deep);
    EXPECT_FALSE(read.session.has_value());
    ASSERT_FALSE(read.diagnostics.empty());
    EXPECT_TRUE(contains(read.diagnostics.front().message, "nests deeper"));
    EXPECT_FALSE(core::looksLikeSession(deep));
}

TEST(Session, EveryExportWritesTheScenarioUnderTheSameKeys) {
    core::Scenario scenario;
    scenario.batch = 4;
    const core::Analysis analysis = analyzePreset("llama-3-8b", scenario);
    const nlohmann::json summary = core::summaryJson(analysis);
    EXPECT_EQ(summary["scenario"], core::scenarioJson(scenario));
    EXPECT_EQ(summary["scenario"]["batch_size"], 4);
    core::Scenario read;
    core::Diagnostics diagnostics;
    ASSERT_TRUE(core::readScenario(summary["scenario"], read, diagnostics));
    EXPECT_EQ(read, scenario);
}

TEST(Session, KeepsItsOriginTheViewAndTheSelectedLayer) {
    // A session reopened after a restart was labelled with its file and shown unedited.
    core::Session session;
    session.config = preset("qwen3-8b");
    session.origin.kind = core::SessionOrigin::Kind::File;
    session.origin.label = "config.json";
    session.origin.path = "/models/qwen3/config.json";
    session.origin.loadedConfig = session.config;
    session.config.numLayers = 30;
    session.view = core::ViewKind::KvCache;
    session.selectedLayer = 7;
    const core::SessionReadResult read = core::sessionFromJson(core::sessionToJson(session, "1.2.3"));
    ASSERT_TRUE(read.session.has_value());
    EXPECT_TRUE(read.diagnostics.empty());
    EXPECT_EQ(read.session->origin, session.origin);
    EXPECT_EQ(read.session->origin.loadedConfig->numLayers, 36);
    EXPECT_EQ(read.session->config.numLayers, 30);
    EXPECT_EQ(read.session->view, core::ViewKind::KvCache);
    EXPECT_EQ(read.session->selectedLayer, 7);
}

TEST(Session, AMalformedOriginViewOrLayerIsDroppedWithAWarningNamingTheField) {
    const std::string json = core::sessionToJson(core::Session{}, "1.2.3");
    const std::string edited = replaced(json, "\"scenario\"",
                                        R"("origin": {"kind": "ftp", "label": 3, "loaded_config": {"x": 1}},
                                           "view": "nonsense", "selected_layer": -2, "scenario")");
    ASSERT_NE(edited, json);
    const core::SessionReadResult read = core::sessionFromJson(edited);
    ASSERT_TRUE(read.session.has_value());
    EXPECT_EQ(read.session->origin.kind, core::SessionOrigin::Kind::None);
    EXPECT_FALSE(read.session->view.has_value());
    EXPECT_FALSE(read.session->selectedLayer.has_value());
    std::vector<std::string> fields;
    for (const core::Diagnostic& diagnostic : read.diagnostics) {
        EXPECT_EQ(diagnostic.severity, core::Severity::Warning) << diagnostic.message;
        fields.push_back(diagnostic.field);
    }
    for (const char* field : {"origin.kind", "origin.label", "origin.loaded_config", "view", "selected_layer"}) {
        EXPECT_NE(std::find(fields.begin(), fields.end(), field), fields.end()) << field;
    }
}

} // namespace
} // namespace archplay::test

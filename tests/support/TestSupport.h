// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers the core tests share: presets, their analyses and scenarios.

#include "TestPaths.h"
#include "core/analysis/Analysis.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/report/ModelZoo.h"
#include "core/report/ReportText.h"
#include "core/validate/Validation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace archplay::test {

/// The config of a built-in preset; fails the test when it does not load.
inline core::ModelConfig preset(const std::string& id) {
    const core::Preset* found = core::findPreset(id);
    EXPECT_NE(found, nullptr) << "no preset " << id;
    if (!found) {
        return {};
    }
    auto config = core::presetConfig(*found);
    EXPECT_TRUE(config.has_value()) << "preset " << id << " does not import";
    return config.value_or(core::ModelConfig{});
}

/// A scenario of `batch` sequences of `sequence` tokens (the encoder reads as many), cached at `kvDType`.
inline core::Scenario scenarioAt(std::uint64_t sequence, std::uint64_t batch = 1,
                                 core::DType kvDType = core::DType::BF16) {
    core::Scenario scenario;
    scenario.sequenceLength = sequence;
    scenario.encoderSequenceLength = sequence;
    scenario.batch = batch;
    scenario.kvDType = kvDType;
    return scenario;
}

/// The analysis of a built-in preset; fails the test when it is not valid.
inline core::Analysis analyzePreset(const std::string& id, core::Scenario scenario = {}) {
    core::Analysis analysis = core::analyze(preset(id), scenario);
    EXPECT_TRUE(analysis.valid) << id;
    return analysis;
}

/// The report header of a built-in preset, dated so that outputs compare byte for byte.
inline core::ReportInfo presetReportInfo(const std::string& id) {
    core::ReportInfo info;
    info.title = core::findPreset(id)->info.name;
    info.origin = "preset " + id;
    info.date = "2025-01-31";
    info.preset = core::findPreset(id)->info;
    return info;
}

/// The zoo row of `id`; fails the test (and gives an empty row) when there is none.
inline const core::ZooRow& rowOf(const core::ModelZoo& zoo, const std::string& id) {
    static const core::ZooRow none;
    const auto it = std::find_if(zoo.rows.begin(), zoo.rows.end(), [&](const core::ZooRow& r) { return r.id == id; });
    if (it == zoo.rows.end()) {
        ADD_FAILURE() << "no zoo row " << id;
        return none;
    }
    return *it;
}

/// Whether `text` holds `part`.
inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// A JSON file's value; a discarded value (which fails any test reading it) when it does not parse.
inline nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}

/// The fields of one CSV line, a quoted comma not separating two.
inline std::size_t csvFieldCount(const std::string& line) {
    std::size_t fields = 1;
    bool quoted = false;
    for (const char ch : line) {
        if (ch == '"') {
            quoted = !quoted;
        } else if (ch == ',' && !quoted) {
            ++fields;
        }
    }
    return fields;
}

} // namespace archplay::test

// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/FuzzTargets.h"

#include "app/cli/CliCommands.h"
#include "core/analysis/Analysis.h"
#include "core/io/ConfigJson.h"
#include "core/io/GpuJson.h"
#include "core/io/Session.h"
#include "core/report/Costs.h"
#include "core/report/Exports.h"
#include "core/report/ModelZoo.h"
#include "core/report/ReportJson.h"
#include "core/report/ReportText.h"
#include "core/report/ZooSources.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace archplay::fuzz {
namespace {

void require(bool condition, const char* promise) {
    if (!condition) {
        throw BrokenInvariant(promise);
    }
}

/// The scenario at the edge: 2^62 tokens of fp32 cache, 2^20 sequences, on 2^40 devices.
core::Scenario edgeScenario() {
    core::Scenario scenario;
    scenario.sequenceLength = std::uint64_t{1} << 62;
    scenario.encoderSequenceLength = std::uint64_t{1} << 62;
    scenario.batch = std::uint64_t{1} << 20;
    scenario.kvDType = core::DType::FP32;
    scenario.gpuCount = std::uint64_t{1} << 40;
    return scenario;
}

/// What params, kv, validate and every text export compute; the JSON is dumped because dumping is
/// what throws on text that is not UTF-8.
core::Analysis analyzeEverything(const core::ModelConfig& config, const core::Scenario& scenario) {
    core::Analysis analysis = core::analyze(config, scenario);
    require(analysis.valid != core::hasErrors(analysis.diagnostics),
            "an analysis is valid exactly when it has no error");
    nlohmann::json validation{{"diagnostics", core::diagnosticsJson(analysis.diagnostics)}};
    core::addExactness(validation, config);
    (void)validation.dump();
    if (!analysis.valid) {
        return analysis;
    }
    const core::ParamReport& params = analysis.params;
    require(!params.overflow, "a valid analysis has exact parameter counts");
    require(params.breakdown.params == params.total, "the breakdown adds up to the total");
    require(params.active <= params.total, "active parameters are at most the total");
    (void)core::paramsJson(params).dump();
    (void)core::kvJson(analysis).dump();
    if (analysis.costsValid) {
        // Compute, memory and speed: their rows, JSON and explanation, and what must hold of them.
        require(analysis.weights.bytes == analysis.weightBytes, "the weight bytes are the format's");
        require(analysis.compute.perToken ==
                    analysis.compute.weights + analysis.compute.attention + analysis.compute.state,
                "FLOPs per token add up");
        require(analysis.serving.totalBytes >= analysis.serving.weightBytes, "serving holds the weights");
        require(analysis.speed.fits == analysis.devices.fits, "a speed is given exactly when the devices hold it");
        for (const core::DecodeStep& step : analysis.speed.curve) {
            require(step.batch <= analysis.speed.largestBatch, "no speed beyond the largest batch that fits");
            require(!(step.perSequence * step.weightBytes > analysis.speed.bandwidth * (1 + 1e-9)),
                    "decode is never faster than bandwidth over the weights it reads");
        }
        for (const auto& rows : {core::computeRows(analysis), core::servingMemoryRows(analysis),
                                 core::trainingMemoryRows(analysis), core::speedRows(analysis)}) {
            require(!rows.empty(), "valid costs have rows");
        }
        (void)core::computeJson(analysis).dump();
        (void)core::memoryJson(analysis, true).dump();
        (void)core::rooflineJson(analysis).dump();
        (void)core::toMarkdown(core::explainCosts(analysis));
    } else {
        require(core::computeRows(analysis).empty(), "costs beyond 2^64 - 1 are not shown");
    }
    const core::ReportInfo info{.title = "fuzz", .origin = "fuzz", .date = "2025-01-01"};
    for (const core::ExportWhat what : core::kAllExportWhats) {
        for (const core::ExportFormat format : core::kAllExportFormats) {
            if (!core::isImageFormat(format)) {
                (void)core::exportText(analysis, what, format, info);
            }
        }
    }
    return analysis;
}

} // namespace

void configTarget(std::string_view data) {
    core::ImportResult imported = core::importConfigText(data);
    if (!imported.config) {
        require(core::hasErrors(imported.diagnostics), "a refused config carries an error");
        imported = core::importConfigText(data, {.bestEffort = true});
        if (!imported.config) {
            return;
        }
    }
    const core::Analysis analysis = analyzeEverything(*imported.config, {});
    (void)analyzeEverything(*imported.config, edgeScenario());

    const core::ImportResult again =
        core::importConfigText(core::exportConfigText(*imported.config), {.bestEffort = true});
    require(again.config.has_value(), "an exported config reads back");
    const core::Analysis reread = core::analyze(*again.config, {});
    require(reread.valid == analysis.valid, "an exported config reads back as valid as it was");
    require(reread.params.total == analysis.params.total && reread.kv.totalBytes == analysis.kv.totalBytes,
            "an exported config reads back with the same counts");
}

void sessionTarget(std::string_view data) {
    (void)core::looksLikeSession(data);
    const core::SessionReadResult read = core::sessionFromJson(data);
    if (!read.session) {
        require(core::hasErrors(read.diagnostics), "a refused session carries an error");
        return;
    }
    (void)analyzeEverything(read.session->config, read.session->scenario);
    const std::string written = core::sessionToJson(*read.session, "fuzz");
    const core::SessionReadResult again = core::sessionFromJson(written);
    require(again.session.has_value(), "a written session reads back");
    // The fields kept as they were may gain what the writer spells out (a default hidden_act); the
    // model may not change, and the text is stable from the first write on.
    core::ModelConfig model = read.session->config;
    core::ModelConfig modelAgain = again.session->config;
    model.passthrough = modelAgain.passthrough = {};
    require(modelAgain == model, "a written session reads back with the same model");
    require(core::sessionToJson(*again.session, "fuzz") == written, "a written session is written again unchanged");
    require(again.session->scenario == read.session->scenario, "a written session reads back with the same scenario");
    require(again.session->origin == read.session->origin, "a written session reads back with the same origin");
}

void gpuCatalogueTarget(std::string_view data) {
    const core::GpuCatalogueRead read = core::gpuCatalogueFromJson(data);
    require(read.ok() || core::hasErrors(read.diagnostics), "a refused device carries an error");
    std::set<std::string> ids;
    for (const core::Gpu& gpu : read.gpus) {
        require(!gpu.builtin && core::findGpu(core::builtinGpus(), gpu.id) == nullptr,
                "a device of the user's is not a built-in one");
        require(ids.insert(gpu.id).second, "ids are unique");
        require(!std::all_of(gpu.id.begin(), gpu.id.end(), [](char c) { return c >= '0' && c <= '9'; }),
                "an id is not digits alone");
        for (const std::string* text : {&gpu.id, &gpu.name, &gpu.source}) {
            require(std::none_of(text->begin(), text->end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }),
                    "names hold no control character");
        }
        require(gpu.memoryGiB >= 1 && gpu.bandwidth > 0 && gpu.bf16Flops > 0 && gpu.fp8Flops >= 0,
                "a device's figures are in their ranges");
    }
    const core::GpuCatalogueRead again = core::gpuCatalogueFromJson(core::gpuCatalogueToJson(read.gpus));
    require(again.ok() && again.gpus == read.gpus, "a written catalogue reads back as the same devices");
}

void zooFolderTarget(std::string_view data) {
    // One folder per process, made once; the file is replaced for every input.
    static const std::filesystem::path folder = [] {
        const std::filesystem::path made =
            std::filesystem::temp_directory_path() / ("archplay-fuzz-zoo-" + std::to_string(::getpid()));
        std::filesystem::create_directories(made / "org" / "model");
        return made;
    }();
    {
        std::ofstream file(folder / "org" / "model" / "config.json", std::ios::binary | std::ios::trunc);
        file.write(data.data(), static_cast<std::streamsize>(data.size()));
    }
    const core::ZooScan scan = core::zooFromFolder(folder);
    require(scan.inputs.size() == 1, "the zoo finds the one config.json");
    for (const core::Scenario& scenario : {core::Scenario{}, edgeScenario()}) {
        const core::ModelZoo zoo = core::buildZoo(scan.inputs, scenario);
        require(zoo.rows.size() == 1, "one row per file");
        const core::ZooRow& row = zoo.rows.front();
        require(row.counted() || !row.reason.empty(), "a row not counted says why");
        (void)core::zooJson(zoo).dump();
        (void)core::zooCsv(zoo);
        (void)core::zooMarkdown(zoo);
    }
}

void commandLineTarget(std::string_view data) {
    std::vector<std::string> args;
    for (std::size_t start = 0; start <= data.size();) {
        const std::size_t end = std::min(data.find('\n', start), data.size());
        args.emplace_back(data.substr(start, end - start));
        start = end + 1;
    }
    const cli::ParsedCommandLine parsed = cli::parseCommandLine(args);
    require(static_cast<bool>(parsed.run) != parsed.error.has_value(), "a command line is a command or an error");
    require(!parsed.error || !parsed.error->message.empty(), "a usage error says what is wrong");
}

} // namespace archplay::fuzz

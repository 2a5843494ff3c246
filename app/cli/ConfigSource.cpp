// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ConfigSource.h"

#include "core/io/ConfigJson.h"
#include "core/io/Files.h"
#include "core/io/Session.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>

namespace archplay::cli {

LoadedConfig loadConfig(const std::string& spec, bool bestEffort) {
    LoadedConfig loaded;
    loaded.origin = spec;
    std::error_code error;
    core::ImportResult result;
    if (std::filesystem::exists(spec, error)) {
        const core::FileRead file = core::readRegularFile(spec);
        if (file.bytes && core::looksLikeSession(*file.bytes)) {
            // A session saved by the window: its config is what the commands read.
            core::SessionReadResult read = core::sessionFromJson(*file.bytes);
            result.diagnostics = std::move(read.diagnostics);
            if (read.session) {
                result.config = std::move(read.session->config);
                result.diagnostics.push_back(
                    {core::Severity::Hint, "",
                     "a session file: its config is read, its scenario is not (give --seq, --batch, ... as options)"});
            }
        } else {
            result = core::importConfigFile(spec, {.bestEffort = bestEffort});
        }
    } else if (const core::Preset* preset = core::findPreset(spec)) {
        loaded.origin = "preset " + spec;
        loaded.preset = preset;
        result = core::importConfigText(preset->json);
    } else {
        result.diagnostics.push_back({core::Severity::Error, "", "no such file, and no preset with that id"});
    }
    loaded.config = std::move(result.config);
    loaded.diagnostics = std::move(result.diagnostics);
    return loaded;
}

AnalyzedConfig analyzeConfig(const std::string& spec, bool bestEffort, const core::Scenario& scenario) {
    AnalyzedConfig result{loadConfig(spec, bestEffort), std::nullopt};
    if (result.loaded.config) {
        result.analysis = core::analyze(*result.loaded.config, scenario);
        core::Diagnostics& diagnostics = result.analysis->diagnostics;
        diagnostics.insert(diagnostics.begin(), result.loaded.diagnostics.begin(), result.loaded.diagnostics.end());
    }
    return result;
}

int reportInvalid(const std::string& origin, const core::Diagnostics& diagnostics, std::ostream& err) {
    for (const core::Diagnostic& d : diagnostics) {
        if (d.severity == core::Severity::Error) {
            fmt::print(err, "archplay-cli: {}: {}{}\n", origin, d.field.empty() ? "" : d.field + ": ", d.message);
            return 1;
        }
    }
    fmt::print(err, "archplay-cli: {}: the config is invalid\n", origin);
    return 1;
}

} // namespace archplay::cli

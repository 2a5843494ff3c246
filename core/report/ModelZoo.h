// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/Analysis.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archplay::core {

/// One built-in preset analysed in a scenario: a row of the model zoo.
struct ZooRow {
    std::string id;
    std::string name;
    std::string family;
    std::uint64_t totalParams = 0;  ///< unique trainable parameters (FORMULAS.md §0)
    std::uint64_t activeParams = 0; ///< used by one token
    std::optional<std::uint64_t> publishedParams;
    bool matchesPublished = false;     ///< totalParams == publishedParams; false when nothing is published
    std::int64_t encoderLayers = 0;    ///< encoder stack (encoder-only and encoder-decoder models)
    std::int64_t decoderLayers = 0;    ///< decoder stack (decoder-only and encoder-decoder models)
    std::string attention;             ///< attentionLabel(): "GQA 8/32"
    std::string ffn;                   ///< ffnKindLabel(): "SwiGLU", "MoE 2/8"
    std::uint64_t kvBytesPerToken = 0; ///< at the scenario's KV precision. Units: bytes.
    std::uint64_t kvTotalBytes = 0;    ///< the scenario's whole cache. Units: bytes.
    std::uint64_t weightBytes = 0;     ///< at the scenario's weight precision. Units: bytes.
    bool fits = false;                 ///< weights + cache fit the scenario's GPUs
    std::string fit;                   ///< fitVerdict(): "fits, 23% used", "needs 2 x 80 GiB"

    /// "32", or "12 + 12" for an encoder-decoder model (encoder + decoder), as the summary shows it.
    std::string layersLabel() const;
};

/// Every built-in preset analysed in one scenario.
struct ModelZoo {
    Scenario scenario;
    std::vector<ZooRow> rows; ///< smallest total first (ties by id)
    Diagnostics diagnostics;  ///< a preset whose analysis failed (a bad scenario), named in the message
};

/// Analyses every built-in preset (builtinPresets()) in `scenario` with analyze(), one row each.
[[nodiscard]] ModelZoo modelZoo(const Scenario& scenario);

/// The zoo as CSV with exact figures (bytes in bytes), RFC 4180 quoting; published_params is empty
/// when no count is published.
std::string zooCsv(const ModelZoo& zoo);
/// The zoo as a Markdown table with exact counts and binary byte sizes.
std::string zooMarkdown(const ModelZoo& zoo);
/// {"scenario": {...}, "models": [{"id", "total_params", ..., "published_params" (null when none)}]}.
nlohmann::json zooJson(const ModelZoo& zoo);

} // namespace archplay::core

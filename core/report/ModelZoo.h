// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model zoo: many configs (the built-in presets, config.json files found in folders, the Hugging
// Face cache) analysed in one scenario, one row each. Every figure is read from analyze() and from the
// design figures (DesignFigures.h); a config that cannot be counted exactly is a row with its reason.

#include "core/analysis/Analysis.h"
#include "core/io/ConfigJson.h"
#include "core/io/Presets.h"
#include "core/validate/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archplay::core {

/// Where a zoo entry comes from.
enum class ZooOrigin {
    Preset,  ///< a built-in preset; ZooRow::source is its id
    File,    ///< a config.json found in a folder; ZooRow::source is its path
    HfCache, ///< a Hugging Face hub cache snapshot; ZooRow::source is the repo id ("meta-llama/Llama-3.1-8B")
};
/// "preset", "file", "hf-cache".
std::string_view toString(ZooOrigin origin);

/// How far a row's figures can be trusted.
enum class ZooStatus {
    Exact,      ///< counted exactly
    Estimate,   ///< counted, but config.json fields that change the architecture were ignored (labelled)
    NotCounted, ///< no figures: the file does not import, or the config is invalid; ZooRow::reason says why
};
/// "exact", "estimate", "not counted".
std::string_view toString(ZooStatus status);

/// One config to put in the zoo: where it comes from and what reading it gave.
struct ZooInput {
    ZooOrigin origin = ZooOrigin::File;
    std::string source;   ///< preset id, file path, or Hugging Face repo id
    std::string snapshot; ///< the Hugging Face cache snapshot hash; empty otherwise
    std::string path;     ///< the config.json read; empty for a preset
    std::string name;     ///< a preset's name; empty: the config's recorded name (_name_or_path), else a file's folder
                          ///< name, else the source
    std::string family;   ///< a preset's family; empty: the config's model_type
    std::optional<ReleaseDate> released;          ///< a preset's release date; unknown for other configs
    std::optional<std::uint64_t> publishedParams; ///< a preset's published count
    ImportResult imported;                        ///< the config, or the diagnostics saying why not
};

/// The layer count a parameter total implies, by two rules (the point: the first is far off for
/// modern models). Real layers L = encoder + decoder layers.
struct ZooLayerEstimate {
    /// The 12·L·d² rule: (P − V·d·(tied ? 1 : 2)) / (12·d²), P = total parameters, V = vocabulary,
    /// d = hidden size; "tied" also when there is no LM head (one V·d matrix). Units: layers.
    double rule12 = 0;
    /// archplay's count: (P − outerParams) / perLayerParams. Units: layers.
    double perLayer = 0;
    /// P minus every layer's parameters: embeddings, positions, final norm, LM head, pooler.
    std::uint64_t outerParams = 0;
    /// The most frequent per-layer count of the stack; when several counts are equally frequent
    /// (layers alternating dense and MoE), their mean. Exact for a uniform stack and for an even
    /// alternation; for a mixed stack (3 dense then 58 MoE layers, 3:1 hybrids, encoder-decoder)
    /// the dominant layer kind, so the estimate shows how far it is from the mean. Units: parameters.
    double perLayerParams = 0;
};

/// One config analysed in a scenario: a row of the model zoo. Only origin, source, snapshot, path,
/// name, family, status and reason are set for a NotCounted row (model_type too when it was read).
struct ZooRow {
    ZooOrigin origin = ZooOrigin::Preset;
    std::string id; ///< the preset id, file path or repo id (= source), unique within one zoo
    std::string snapshot;
    std::string path;
    std::string name;
    std::string family;                  ///< the preset's family, or model_type for other configs
    std::optional<ReleaseDate> released; ///< known for presets (PresetInfo::released)
    ZooStatus status = ZooStatus::Exact;
    std::string reason;      ///< NotCounted: the first error; Estimate: the ignored fields. Empty when exact
    std::string reasonField; ///< the config.json or scenario field the reason names, when it names one

    std::string modelType;
    std::string architecture; ///< "decoder-only", "encoder-only", "encoder-decoder"
    /// "dense", "moe", "hybrid" (non-attention mixers), "hybrid+moe", "encoder", "encoder-decoder".
    std::string kind;
    std::int64_t encoderLayers = 0; ///< encoder stack (encoder-only and encoder-decoder models)
    std::int64_t decoderLayers = 0; ///< decoder stack (decoder-only and encoder-decoder models)
    std::int64_t hiddenSize = 0;
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0;
    std::int64_t headDim = 0; ///< queryKeyHeadDim(): qk_nope + qk_rope under latent attention
    std::string attention;    ///< attentionLabel(): "GQA 8/32"
    std::string ffn;          ///< ffnKindLabel(): "SwiGLU", "MoE 2/8"
    double ffnRatio = 0;      ///< intermediate / hidden; for MoE the expert width / hidden
    std::int64_t experts = 0; ///< routed experts; 0 for a dense FFN
    std::int64_t topK = 0;    ///< experts per token; 0 for a dense FFN
    std::int64_t vocabSize = 0;
    std::int64_t context = 0; ///< max_position_embeddings. Units: tokens.

    std::uint64_t totalParams = 0;  ///< unique trainable parameters (FORMULAS.md §0)
    std::uint64_t activeParams = 0; ///< used by one token
    std::optional<std::uint64_t> publishedParams;
    bool matchesPublished = false;     ///< totalParams == publishedParams; false when nothing is published
    std::uint64_t kvBytesPerToken = 0; ///< at the scenario's KV precision. Units: bytes.
    std::uint64_t kvTotalBytes = 0;    ///< the scenario's whole cache. Units: bytes.
    std::uint64_t weightBytes = 0;     ///< in weightFormat. Units: bytes.
    /// The format id the weights are counted in ("mxfp4"): the scenario's, or the one the checkpoint
    /// ships in unless a format was given.
    std::string weightFormat;
    bool weightsAsShipped = false;       ///< weightFormat is the checkpoint's own (quantization_config)
    bool fits = false;                   ///< weights + cache fit the scenario's GPUs
    std::string fit;                     ///< fitVerdict(): "fits, 23% used", "needs 2 x 80 GiB"
    std::optional<double> flopsPerToken; ///< DesignFigure::FlopsPerToken; nullopt when costs are refused. Units: FLOP.
    std::optional<double>
        decodeTokensPerSecond; ///< DesignFigure::DecodeTokensPerSecond (an upper bound). Units: tokens/s.
    ZooLayerEstimate layerEstimate;

    bool counted() const { return status != ZooStatus::NotCounted; }
    /// Encoder + decoder layers.
    std::int64_t layers() const { return encoderLayers + decoderLayers; }
    /// "32", or "12 + 12" for an encoder-decoder model (encoder + decoder), as the summary shows it.
    std::string layersLabel() const;
};

/// Configs analysed in one scenario.
struct ModelZoo {
    Scenario scenario;
    std::vector<ZooRow> rows; ///< counted rows smallest total first (ties by id), then the rows not counted, by id
    /// Scenario errors (validateScenario(), each naming its field), once each; the rows they stop are
    /// NotCounted with the same reason.
    Diagnostics diagnostics;
};

/// One row: analyze() of the imported config (with the scenario), or the reason it has no figures.
[[nodiscard]] ZooRow zooRow(const ZooInput& input, const Scenario& scenario);
/// The same row from an analysis already made of `input.imported.config` (the window's current config).
[[nodiscard]] ZooRow zooRow(const ZooInput& input, const Analysis& analysis);

/// The row of a design being edited, from its analysis: named `name`, with no file and no release date.
[[nodiscard]] ZooRow designZooRow(const Analysis& analysis, const std::string& name);

/// Every built-in preset as a zoo input.
[[nodiscard]] std::vector<ZooInput> presetZooInputs();

/// Rows for every input in `scenario`, ordered as ModelZoo::rows says. `threads`: worker threads
/// (0: std::thread::hardware_concurrency()); the rows do not depend on it.
[[nodiscard]] ModelZoo buildZoo(const std::vector<ZooInput>& inputs, const Scenario& scenario, unsigned threads = 1);

/// Every built-in preset analysed in `scenario`: buildZoo(presetZooInputs(), scenario).
[[nodiscard]] ModelZoo modelZoo(const Scenario& scenario);

/// The zoo as CSV, one column per zooColumns() key in that order, exact figures (bytes in bytes),
/// RFC 4180 quoting; an empty field where a row has no value.
std::string zooCsv(const ModelZoo& zoo);
/// The counted rows as a Markdown table (every column; an estimate's reason names the ignored
/// fields), then a "Not counted" table (source, origin, reason).
std::string zooMarkdown(const ModelZoo& zoo);
/// {"scenario": {...}, "models": [{key: value for every zooColumns() key, plus "encoder_layers" and
/// "decoder_layers"}]}; numbers as numbers, fits and matches_published as booleans, null where a
/// row has no value.
nlohmann::json zooJson(const ModelZoo& zoo);

} // namespace archplay::core

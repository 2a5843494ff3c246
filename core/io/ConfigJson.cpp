// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/ConfigJson.h"

#include "core/io/ExtraFields.h"
#include "core/io/Families.h"
#include "core/io/Files.h"
#include "core/io/JsonFields.h"
#include "core/io/JsonText.h"
#include "core/io/ModelKinds.h"
#include "core/io/ShippedWeights.h"
#include "core/validate/Validation.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace archplay::core {
namespace {

using nlohmann::json;

constexpr std::string_view kPresetKey = "archplay_preset";
/// Fields of a config.json that never change the parameters or caches: token ids, dropout, epsilons,
/// initialisation, RoPE frequencies, dtypes, bookkeeping.
bool isBenignKey(std::string_view key) {
    static constexpr std::string_view kExact[] = {
        "architectures",
        "auto_map",
        "torch_dtype",
        "dtype",
        "use_cache",
        "transformers_version",
        "quantization_config",
        "_name_or_path",
        "tokenizer_class",
        "rope_theta",
        "rope_scaling",
        "rope_parameters",
        "pretraining_tp",
        "return_dict",
        "output_hidden_states",
        "output_attentions",
        "output_router_logits",
        "id2label",
        "label2id",
        "problem_type",
        "task_specific_params",
        "chat_template",
        "use_return_dict",
        "attn_implementation",
        "_attn_implementation",
        "max_length",
        "logit_scale",
        "bos_token_id",
        "eos_token_id",
        "pad_token_id",
        "initializer_range",
        "rms_norm_eps",
        "layer_norm_eps",
        "layer_norm_epsilon",
        "norm_eps",
        "tie_encoder_decoder",
        "gradient_checkpointing",
        "image_token_index",
        "image_token_id",
    };
    static constexpr std::string_view kParts[] = {"token_id", "dropout",     "_eps",     "initializer", "init_std",
                                                  "rope_",    "loss_coef",   "aux_loss", "jitter",      "multiplier",
                                                  "softcap",  "temperature", "z_loss"};
    return std::find(std::begin(kExact), std::end(kExact), key) != std::end(kExact) ||
           std::any_of(std::begin(kParts), std::end(kParts),
                       [&](std::string_view part) { return key.find(part) != std::string_view::npos; });
}

/// The keys the families' readers read under another name than the field's own (GPT-2's n_embd is
/// hidden_size): what an import diagnostic on them takes the user to.
constexpr std::pair<std::string_view, Field> kSpellings[] = {
    {"n_embd", Field::HiddenSize},
    {"n_embed", Field::HiddenSize},
    {"d_model", Field::HiddenSize},
    {"n_layer", Field::NumHiddenLayers},
    {"num_layers", Field::NumHiddenLayers},
    {"num_decoder_layers", Field::NumHiddenLayers},
    {"decoder_layers", Field::NumHiddenLayers},
    {"encoder_layers", Field::NumEncoderLayers},
    {"n_head", Field::NumAttentionHeads},
    {"num_heads", Field::NumAttentionHeads},
    {"decoder_attention_heads", Field::NumAttentionHeads},
    {"num_kv_heads", Field::NumKeyValueHeads},
    {"n_head_kv", Field::NumKeyValueHeads},
    {"multi_query", Field::NumKeyValueHeads},
    {"d_kv", Field::HeadDim},
    {"n_inner", Field::IntermediateSize},
    {"ffn_dim", Field::IntermediateSize},
    {"d_ff", Field::IntermediateSize},
    {"ffn_hidden_size", Field::IntermediateSize},
    {"decoder_ffn_dim", Field::IntermediateSize},
    {"n_positions", Field::MaxPositionEmbeddings},
    {"seq_length", Field::MaxPositionEmbeddings},
    {"n_routed_experts", Field::NumExperts},
    {"num_local_experts", Field::NumExperts},
    {"use_sliding_window", Field::LayerTypes},
    {"use_qk_norm", Field::QkNorm},
    {"qk_layernorm", Field::QkNorm},
    {"attention_bias", Field::QBias},
    {"qkv_bias", Field::QBias},
    {"bias", Field::QBias},
    {"activation_function", Field::HiddenAct},
    {"hidden_activation", Field::HiddenAct},
    {"feed_forward_proj", Field::HiddenAct},
    {"rotary_pct", Field::PartialRotaryFactor},
    {"no_rope_layers", Field::NopeLayers},
    {"attn_output_gate", Field::AttentionOutputGate},
    {"moe_layer_freq", Field::MoeLayers},
    {"mlp_layer_types", Field::MoeLayers},
    {"layers_block_type", Field::TokenMixers},
    {"state_size", Field::MambaStateSize},
    {"conv_kernel", Field::MambaConvKernel},
    {"time_step_rank", Field::MambaTimeStepRank},
};

/// The field an import diagnostic concerns, from the key it names (inside text_config or not).
Field importedField(std::string_view key) {
    if (key.starts_with(kTextConfigKey) && key.size() > kTextConfigKey.size() && key[kTextConfigKey.size()] == '.') {
        key.remove_prefix(kTextConfigKey.size() + 1);
    }
    const auto* spelled = std::find_if(std::begin(kSpellings), std::end(kSpellings),
                                       [key](const auto& entry) { return entry.first == key; });
    return spelled != std::end(kSpellings) ? spelled->second : fieldForKey(key);
}

/// Fields the common reader interprets in their usual Hugging Face meaning (Llama's).
constexpr std::string_view kCommonKeys[] = {
    "vocab_size",     "hidden_size",       "num_hidden_layers",       "num_attention_heads", "num_key_value_heads",
    "head_dim",       "intermediate_size", "max_position_embeddings", "hidden_act",          "tie_word_embeddings",
    "attention_bias", "mlp_bias",
};
constexpr std::string_view kRequiredKeys[] = {"vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                                              "intermediate_size"};

bool isAttentionLayerTypes(const json& value) {
    return value.is_array() && std::all_of(value.begin(), value.end(), [](const json& item) {
               return item.is_string() && (item == "full_attention" || item == "sliding_attention");
           });
}

/// Reads a model type that has no dedicated reader from the common Hugging Face field names, or
/// refuses it (see importConfig()).
ModelConfig readCommonNames(const json& object, const std::string& modelType, Diagnostics& diagnostics,
                            const ImportOptions& options) {
    ModelConfig config;
    config.modelType = modelType;
    if (auto other = otherArchitectureName(modelType)) {
        diagnostics.push_back({Severity::Error, "model_type",
                               fmt::format("model_type '{}' is {}: not a transformer language model archplay counts",
                                           modelType, *other)});
        return config;
    }
    json understood = json::object();
    json rest = json::object();
    std::vector<std::string> unknown;
    if (auto reason = uncountableReason(modelType)) {
        unknown.push_back(fmt::format("model_type ({})", *reason));
    }
    for (const auto& [key, value] : object.items()) {
        const bool common = std::find(std::begin(kCommonKeys), std::end(kCommonKeys), key) != std::end(kCommonKeys) ||
                            (key == "sliding_window" && value.is_null()) ||
                            (key == "layer_types" && isAttentionLayerTypes(value));
        if (common) {
            understood[key] = value;
        } else {
            rest[key] = value;
            if (key != "model_type" && key != kPresetKey && !isBenignKey(key)) {
                unknown.push_back(key);
            }
        }
    }
    for (std::string_view key : kRequiredKeys) {
        if (!understood.contains(key)) {
            diagnostics.push_back(
                {Severity::Error, std::string(key),
                 fmt::format("{} is missing, and model_type '{}' has no reader that knows its default", key,
                             modelType)});
        }
    }
    if (!unknown.empty()) {
        std::string list;
        for (const std::string& key : unknown) {
            list += (list.empty() ? "" : ", ") + key;
        }
        if (!options.bestEffort) {
            diagnostics.push_back(
                {Severity::Error, "model_type",
                 fmt::format("model_type '{}' has no dedicated reader, and these fields may change its architecture "
                             "in ways archplay cannot count: {}. It refuses rather than guess; open it as an "
                             "estimate to ignore them",
                             modelType, list)});
            return config;
        }
        diagnostics.push_back({Severity::Warning, "model_type",
                               fmt::format("estimate: model_type '{}' read ignoring {}", modelType, list)});
    }
    JsonFields fields(understood, diagnostics);
    readNative(fields, config, true);
    if (options.bestEffort) {
        config.ignoredFields = std::move(unknown);
    }
    json passthrough = fields.remaining();
    passthrough.update(rest);
    passthrough.erase("model_type");
    passthrough.erase(kPresetKey);
    config.passthrough = std::move(passthrough);
    return config;
}

/// Reads one (non-nested) config object whose model_type is `modelType`.
ModelConfig readObject(const json& object, const std::string& modelType, Diagnostics& diagnostics,
                       const ImportOptions& options) {
    const Family* family = findFamily(modelType);
    if (!family && modelType != "archplay") {
        return readCommonNames(object, modelType, diagnostics, options);
    }
    ModelConfig config;
    config.modelType = modelType;
    JsonFields fields(object, diagnostics);
    fields.consume("model_type");
    fields.consume(kPresetKey);
    if (family) {
        family->read(fields, config);
    } else {
        readNative(fields, config, false);
    }
    config.passthrough = fields.remaining();
    for (const auto& [field, why] : fields.notModelledFields()) {
        if (!options.bestEffort) {
            diagnostics.push_back(
                {Severity::Error, field,
                 fmt::format("{}: archplay cannot count this exactly and refuses rather than guess; open it as an "
                             "estimate to ignore it",
                             why)});
        } else {
            diagnostics.push_back({Severity::Warning, field, fmt::format("estimate: {}", why)});
            config.ignoredFields.push_back(field);
        }
    }
    return config;
}

/// A multimodal model_type whose language model sits in text_config, read with `innerType` when the
/// text_config names no model_type of its own.
struct Wrapper {
    std::string_view modelType;
    std::string_view innerType;
};

constexpr Wrapper kWrappers[] = {
    {"gemma3", "gemma3_text"},   {"llama4", "llama4_text"},           {"mistral3", "mistral"},
    {"qwen3_5", "qwen3_5_text"}, {"qwen3_5_moe", "qwen3_5_moe_text"},
};

const Wrapper* findWrapper(std::string_view modelType) {
    for (const Wrapper& wrapper : kWrappers) {
        if (wrapper.modelType == modelType) {
            return &wrapper;
        }
    }
    return nullptr;
}

/// The wrapper's other sub-configs (vision_config, audio_config, ...): the towers not counted.
std::vector<std::string> towersOf(const json& object) {
    std::vector<std::string> towers;
    for (const auto& [key, value] : object.items()) {
        if (key != kTextConfigKey && value.is_object() && key.size() > 7 && key.ends_with("_config") &&
            key != "quantization_config" && key != "rope_scaling" && key != "auto_map") {
            towers.push_back(key.substr(0, key.size() - 7));
        }
    }
    return towers;
}

/// Reads the language model of a multimodal wrapper from its text_config. Only the language model is
/// counted; the towers are named. A wrapper-level tie_word_embeddings decides the output head.
ModelConfig readWrapped(const json& object, const std::string& modelType, std::string_view innerDefault,
                        Diagnostics& diagnostics, const ImportOptions& options) {
    auto nested = object.find(kTextConfigKey);
    const json inner = nested != object.end() && nested->is_object() ? *nested : json::object();
    std::string innerType(innerDefault);
    if (auto it = inner.find("model_type"); it != inner.end() && it->is_string()) {
        innerType = it->get<std::string>();
    }
    if (innerType == "ministral") {
        innerType = "mistral"; // the same configuration class defaults
    }
    ModelConfig config = readObject(inner, innerType, diagnostics, options);
    json passthrough = object;
    passthrough.erase("model_type");
    passthrough.erase(kPresetKey);
    if (auto tie = object.find("tie_word_embeddings"); tie != object.end() && tie->is_boolean()) {
        config.tieWordEmbeddings = tie->get<bool>();
    }
    json innerRest = config.passthrough.json();
    innerRest["model_type"] = innerType;
    passthrough[std::string(kTextConfigKey)] = std::move(innerRest);
    config.passthrough = std::move(passthrough);
    config.modelType = modelType;
    config.uncountedParts = towersOf(object);
    std::string towers;
    for (const std::string& tower : config.uncountedParts) {
        towers += (towers.empty() ? "" : ", ") + tower;
    }
    diagnostics.push_back(
        {Severity::Hint, std::string(kTextConfigKey),
         fmt::format("{} is multimodal: archplay counts its language model ({}) only{}", modelType, innerType,
                     towers.empty() ? std::string() : fmt::format("; not counted: {}", towers))});
    return config;
}

/// What a family's reader gives when config.json states nothing: its defaults.
ModelConfig familyDefaults(const Family& family) {
    ModelConfig defaults;
    Diagnostics ignored;
    const json empty = json::object();
    JsonFields fields(empty, ignored);
    family.read(fields, defaults);
    return defaults;
}

/// `object` without the fields the native reader interprets. Kept under such a name, a field the
/// model does not use (num_experts that an estimate ignored) would be read back as part of the model.
json withoutNativeFields(const json& object) {
    Diagnostics ignored;
    JsonFields fields(object, ignored);
    ModelConfig scratch;
    readNative(fields, scratch, false);
    return fields.remaining();
}

bool sameModel(ModelConfig a, ModelConfig b) {
    a.passthrough = {};
    b.passthrough = {};
    return a == b;
}

} // namespace

std::optional<TensorNaming> familyTensorNaming(std::string_view modelType) {
    if (const Wrapper* wrapper = findWrapper(modelType)) {
        modelType = wrapper->innerType;
    }
    const Family* family = findFamily(modelType);
    if (!family) {
        return std::nullopt;
    }
    return familyDefaults(*family).tensorNaming;
}

const std::vector<std::string>& supportedModelTypes() {
    static const std::vector<std::string> types = [] {
        std::vector<std::string> result;
        for (const Family& family : families()) {
            result.emplace_back(family.modelType);
        }
        result.emplace_back("gemma3");
        result.emplace_back("archplay");
        return result;
    }();
    return types;
}

ImportResult importConfig(const json& object, const ImportOptions& options) {
    ImportResult result;
    if (!object.is_object()) {
        result.diagnostics.push_back({Severity::Error, "",
                                      fmt::format("a config.json must hold a JSON object, not "
                                                  "a {}",
                                                  object.type_name())});
        return result;
    }
    std::string modelType = "archplay";
    if (auto it = object.find("model_type"); it != object.end()) {
        if (!it->is_string()) {
            result.diagnostics.push_back({Severity::Error, "model_type", "model_type must be a string"});
            return result;
        }
        modelType = it->get<std::string>();
    } else {
        result.diagnostics.push_back(
            {Severity::Warning, "model_type", "model_type is missing; reading the common field names"});
        modelType = "unknown";
    }

    if (const Wrapper* wrapper = findWrapper(modelType)) {
        result.config = readWrapped(object, modelType, wrapper->innerType, result.diagnostics, options);
    } else if (!findFamily(modelType) && object.contains(kTextConfigKey) &&
               object[std::string(kTextConfigKey)].is_object()) {
        result.config = readWrapped(object, modelType, "unknown", result.diagnostics, options);
    } else {
        result.config = readObject(object, modelType, result.diagnostics, options);
    }
    readExtraFields(result.config->passthrough.json(), *result.config);
    readShippedWeights(result.config->passthrough.json(), *result.config);
    for (Diagnostic& diagnostic : result.diagnostics) {
        diagnostic.target = importedField(diagnostic.field);
    }
    if (options.refuseInvalid && !hasErrors(result.diagnostics)) {
        for (Diagnostic& diagnostic : validate(*result.config)) {
            if (diagnostic.severity == Severity::Error) {
                result.diagnostics.push_back(std::move(diagnostic));
            }
        }
    }
    if (hasErrors(result.diagnostics)) {
        result.config.reset();
    }
    return result;
}

ImportResult importConfigText(std::string_view text, const ImportOptions& options) {
    Diagnostics diagnostics;
    std::optional<json> parsed = parseJsonText(text, diagnostics);
    if (!parsed) {
        ImportResult result;
        result.diagnostics = std::move(diagnostics);
        return result;
    }
    return importConfig(*parsed, options);
}

ImportResult importConfigFile(const std::filesystem::path& path, const ImportOptions& options) {
    const FileRead read = readRegularFile(path.string());
    if (!read.bytes) {
        ImportResult result;
        result.diagnostics.push_back(
            {Severity::Error, "", fmt::format("cannot read {}: {}", path.string(), read.error)});
        return result;
    }
    return importConfigText(*read.bytes, options);
}

json exportConfig(const ModelConfig& config, Diagnostics* notes) {
    const json& kept = config.passthrough.json();
    const bool nested = kept.contains(kTextConfigKey) && kept[std::string(kTextConfigKey)].is_object() &&
                        kept[std::string(kTextConfigKey)].contains("model_type") && !findFamily(config.modelType);
    const std::string familyType =
        nested ? kept[std::string(kTextConfigKey)].value("model_type", std::string()) : config.modelType;
    if (const Family* family = findFamily(familyType)) {
        json out = nested ? kept[std::string(kTextConfigKey)] : kept;
        family->write(config, out);
        out["model_type"] = familyType;
        if (nested) {
            json wrapper = kept;
            wrapper["model_type"] = config.modelType;
            if (wrapper.contains("tie_word_embeddings")) {
                wrapper["tie_word_embeddings"] = config.tieWordEmbeddings;
            }
            wrapper[std::string(kTextConfigKey)] = std::move(out);
            out = std::move(wrapper);
        }
        writeExtraFields(config, familyDefaults(*family), out);
        // Verify by reading back: whatever the family's keys cannot express falls back to the native format.
        const ImportResult check = importConfig(out);
        if (check.config && sameModel(*check.config, config)) {
            // The read back decides; a family writer's mark of doubt is not part of the file.
            (nested ? out[std::string(kTextConfigKey)] : out).erase("__archplay_inexpressible");
            return out;
        }
        if (notes) {
            notes->push_back({Severity::Warning, "model_type",
                              fmt::format("this design cannot be expressed as a '{}' config; it is written in "
                                          "archplay's native format (model_type \"archplay\")",
                                          config.modelType)});
        }
    }
    json out = nested ? json::object() : withoutNativeFields(kept);
    out.erase("__archplay_inexpressible");
    writeNative(config, out);
    writeExtraFields(config, ModelConfig(), out);
    return out;
}

std::string exportConfigText(const ModelConfig& config, Diagnostics* notes) {
    return exportConfig(config, notes).dump(2) + "\n";
}

bool embeddingProjectionApplies(const ModelConfig& config) {
    return config.embeddingProjectionDim > 0 || config.modelType == "opt";
}

std::optional<std::string> recordedModelName(const ModelConfig& config) {
    const nlohmann::json& json = config.passthrough.json();
    const auto name = json.find("_name_or_path");
    if (name == json.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
        return std::nullopt;
    }
    return name->get<std::string>();
}

} // namespace archplay::core

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/WeightFormats.h"

#include "core/util/Checked.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace archplay::core {
namespace {

/// A GGUF block type: `bytes` per `weights` weights along a row (llama.cpp ggml-common.h).
struct GgufType {
    std::uint64_t weights = 1;
    std::uint64_t bytes = 4;
    bool kQuant = false; ///< needs rows that are a multiple of 256, else llama.cpp falls back
};
constexpr GgufType kF32{1, 4}, kQ4_0{32, 18}, kQ5_0{32, 22}, kQ5_1{32, 24}, kQ8_0{32, 34}, kQ4_K{256, 144, true},
    kQ5_K{256, 176, true}, kQ6_K{256, 210, true};

/// llama.cpp's fallback for a K-quant whose rows are not a multiple of 256 (llama-quant.cpp).
GgufType ggufFallback(GgufType type) {
    if (type.bytes == kQ4_K.bytes) {
        return kQ5_0;
    }
    if (type.bytes == kQ5_K.bytes) {
        return kQ5_1;
    }
    return kQ8_0;
}

/// Rows and the length of each row (the input dimension a block runs along) of a 2-D tensor.
struct Rows {
    Checked count = 1;
    Checked length = 0;
};
Rows rowsOf(const TensorSpec& tensor) {
    if (tensor.shape.size() < 2) {
        return {1, tensor.elements()};
    }
    if (tensor.inFirst) {
        return {tensor.shape[1], tensor.shape[0]};
    }
    Checked count = 1;
    for (std::size_t i = 0; i + 1 < tensor.shape.size(); ++i) {
        count *= tensor.shape[i];
    }
    return {count, tensor.shape[tensor.shape.size() - 1]};
}

Checked ggufBytes(const TensorSpec& tensor, GgufType type) {
    const Rows rows = rowsOf(tensor);
    if (type.kQuant && rows.length.value() % 256 != 0) {
        type = ggufFallback(type);
    }
    return rows.count * ceilDiv(rows.length, type.weights) * Checked(type.bytes);
}

/// The GGUF type llama.cpp gives `tensor` in `format` (llama-quant.cpp llama_tensor_get_type, default
/// mixes without an importance matrix).
GgufType ggufType(const TensorSpec& tensor, WeightFormat format, bool moreBits) {
    const GgufType base = format == WeightFormat::Q8_0     ? kQ8_0
                          : format == WeightFormat::Q6_K   ? kQ6_K
                          : format == WeightFormat::Q5_K_M ? kQ5_K
                          : format == WeightFormat::Q4_K_M ? kQ4_K
                                                           : kQ4_0;
    if (tensor.shape.size() < 2 || tensor.use == TensorUse::Vector || tensor.use == TensorUse::Convolution ||
        tensor.component == Component::Router) {
        return kF32; // 1-D tensors, convolutions and the router (ffn_gate_inp) are kept in fp32
    }
    if (tensor.component == Component::OutputHead) {
        return format == WeightFormat::Q8_0 ? kQ8_0 : kQ6_K;
    }
    const bool mix = format == WeightFormat::Q4_K_M || format == WeightFormat::Q5_K_M;
    if (mix && tensor.projection == Projection::FusedQkv) {
        return format == WeightFormat::Q4_K_M ? kQ5_K : kQ6_K;
    }
    if (mix && moreBits && (tensor.projection == Projection::Value || tensor.projection == Projection::FfnDown)) {
        return kQ6_K;
    }
    return base;
}

/// Whether a Hugging Face quantisation (GPTQ, AWQ, bitsandbytes, FP8, MX) quantises `tensor`: the
/// Linear layers of the blocks, not the router, the embeddings, the output head or 1-D tensors.
bool quantisedByHf(const TensorSpec& tensor) {
    return (tensor.use == TensorUse::Matrix || tensor.use == TensorUse::SourceMatrix) &&
           tensor.component != Component::Router && tensor.component != Component::Embedding &&
           tensor.component != Component::OutputHead && tensor.component != Component::Pooler;
}

bool isGguf(WeightFormat format) {
    return format >= WeightFormat::Q8_0;
}

/// Bytes of one copy of a matrix in a Hugging Face quantised format.
Checked hfQuantisedBytes(const TensorSpec& tensor, WeightFormat format) {
    const Rows rows = rowsOf(tensor);
    const Checked out = rows.count;
    const Checked in = rows.length;
    const Checked elements = out * in;
    switch (format) {
    case WeightFormat::FP8:
        return elements + Checked(4);
    case WeightFormat::FP8Block128:
        return elements + Checked(4) * ceilDiv(out, 128) * ceilDiv(in, 128);
    case WeightFormat::INT8:
        return elements + Checked(4) * out;
    case WeightFormat::Int4G128:
    case WeightFormat::Int4G32: {
        // qweight int32 [in / 8, out], qzeros int32 [groups, out / 8], scales fp16 [groups, out].
        const Checked groups = ceilDiv(in, format == WeightFormat::Int4G128 ? 128 : 32);
        return ceilDiv(in, 8) * out * Checked(4) + groups * ceilDiv(out, 8) * Checked(4) + groups * out * Checked(2);
    }
    case WeightFormat::NF4:
        // 4-bit codes, an 8-bit absmax per 64, an fp32 absmax per 256 blocks (double quantisation).
        return ceilDiv(elements, 2) + ceilDiv(elements, 64) + Checked(4) * ceilDiv(elements, 64 * 256);
    case WeightFormat::MXFP4:
        return out * ceilDiv(in, 32) * Checked(17);
    case WeightFormat::NVFP4:
        return out * ceilDiv(in, 16) * Checked(9) + Checked(4);
    default:
        return elements * Checked(2);
    }
}

} // namespace

const std::vector<WeightFormatInfo>& weightFormats() {
    static const std::vector<WeightFormatInfo> formats = {
        {WeightFormat::FP32, "fp32", "FP32", 32, "every tensor in fp32"},
        {WeightFormat::FP16, "fp16", "FP16", 16, "every tensor in fp16"},
        {WeightFormat::BF16, "bf16", "BF16", 16, "every tensor in bf16"},
        {WeightFormat::FP8, "fp8", "FP8", 8,
         "FP8 E4M3 Linear weights with one fp32 scale per tensor; embeddings, head, router and 1-D tensors bf16", true},
        {WeightFormat::FP8Block128, "fp8-block128", "FP8 block 128", 8 + 32.0 / 16384,
         "FP8 E4M3 with an fp32 scale per 128 x 128 block (DeepSeek-V3 weight_scale_inv); embeddings, head, "
         "router and 1-D tensors bf16",
         true},
        {WeightFormat::INT8, "int8", "INT8", 8,
         "bitsandbytes LLM.int8: int8 with an fp32 scale per output row (+32 bits per row); the rest bf16"},
        {WeightFormat::Int4G128, "gptq-int4-g128", "GPTQ/AWQ int4 g128", 4 + 20.0 / 128,
         "int4 packed in int32, an fp16 scale and a 4-bit zero per group of 128 inputs (Frantar et al. 2022, "
         "Lin et al. 2023); GPTQ's g_idx (32 bits per input row) not counted; embeddings, head, router bf16"},
        {WeightFormat::Int4G32, "gptq-int4-g32", "GPTQ/AWQ int4 g32", 4 + 20.0 / 32,
         "as g128 with a group of 32 inputs"},
        {WeightFormat::NF4, "nf4", "NF4", 4 + 8.0 / 64 + 32.0 / (64 * 256),
         "bitsandbytes NF4, block 64, double quantisation: an 8-bit absmax per 64 weights and an fp32 one per "
         "256 blocks (Dettmers et al. 2023); the rest bf16"},
        {WeightFormat::MXFP4, "mxfp4", "MXFP4", 4.25,
         "OCP MX: E2M1 weights with an E8M0 scale per 32 (17 bytes per 32); the rest bf16"},
        {WeightFormat::NVFP4, "nvfp4", "NVFP4", 4.5,
         "E2M1 weights with an E4M3 scale per 16 (9 bytes per 16) and an fp32 scale per tensor; the rest bf16"},
        {WeightFormat::Q8_0, "q8_0", "GGUF Q8_0", 8.5,
         "llama.cpp blocks of 32 int8 and an fp16 scale (34 bytes); 1-D tensors and the router fp32"},
        {WeightFormat::Q6_K, "q6_k", "GGUF Q6_K", 6.5625,
         "llama.cpp super-blocks of 256 in 210 bytes; rows not a multiple of 256 fall back to Q8_0; 1-D "
         "tensors and the router fp32"},
        {WeightFormat::Q5_K_M, "q5_k_m", "GGUF Q5_K_M", 5.5,
         "llama.cpp's mix: Q5_K (176 bytes per 256); Q6_K for the output head, a fused QKV, and attn_v and "
         "ffn_down in the layers use_more_bits picks; fallbacks Q5_1 and Q8_0; 1-D tensors fp32"},
        {WeightFormat::Q4_K_M, "q4_k_m", "GGUF Q4_K_M", 4.5,
         "llama.cpp's mix: Q4_K (144 bytes per 256); Q6_K for the output head and attn_v and ffn_down in the "
         "layers use_more_bits picks, Q5_K for a fused QKV; fallbacks Q5_0 and Q8_0; 1-D tensors fp32"},
        {WeightFormat::Q4_0, "q4_0", "GGUF Q4_0", 4.5,
         "llama.cpp blocks of 32 4-bit weights and an fp16 scale (18 bytes); output head Q6_K; 1-D tensors fp32"},
    };
    return formats;
}

const WeightFormatInfo& formatInfo(WeightFormat format) {
    return weightFormats()[static_cast<std::size_t>(format)];
}

std::optional<WeightFormat> parseWeightFormat(std::string_view id) {
    std::string lower(id);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "int4") {
        return WeightFormat::Int4G128;
    }
    for (const WeightFormatInfo& info : weightFormats()) {
        if (info.id == lower) {
            return info.format;
        }
    }
    return std::nullopt;
}

std::string weightFormatIdList() {
    std::string list;
    for (const WeightFormatInfo& info : weightFormats()) {
        list += (list.empty() ? "" : ", ") + std::string(info.id);
    }
    return list;
}

bool ggufMoreBits(std::int64_t layer, std::int64_t layers) {
    return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
}

Checked storedBytes(const TensorSpec& tensor, WeightFormat format, bool moreBits) {
    const Checked copies = dim(tensor.copies);
    switch (format) {
    case WeightFormat::FP32:
        return tensor.total() * Checked(4);
    case WeightFormat::FP16:
    case WeightFormat::BF16:
        return tensor.total() * Checked(2);
    default:
        break;
    }
    if (isGguf(format)) {
        return ggufBytes(tensor, ggufType(tensor, format, moreBits)) * copies;
    }
    if (!quantisedByHf(tensor)) {
        return tensor.total() * Checked(2);
    }
    return hfQuantisedBytes(tensor, format) * copies;
}

std::optional<WeightFormat> shippedFormat(const ModelConfig& config) {
    return config.shipped ? parseWeightFormat(config.shipped->format) : std::nullopt;
}

std::string weightFormatLabel(const ModelConfig& config, WeightFormat format) {
    const std::string name(formatInfo(format).name);
    return shippedFormat(config) == format ? name + " as shipped" : name;
}

std::string shippedWeightsNote(const ModelConfig& config) {
    if (!config.shipped) {
        return {};
    }
    const ShippedWeights& shipped = *config.shipped;
    if (shipped.format.empty()) {
        return "quantization_config: " + shipped.unread;
    }
    std::string note =
        fmt::format("shipped as {} (quantization_config, quant_method {})", shipped.format, shipped.method);
    if (!shipped.keptModules.empty()) {
        note += fmt::format("; left in 16 bits: {}", fmt::join(shipped.keptModules, ", "));
    }
    return note;
}

bool moduleMatches(std::string_view pattern, std::string_view key) {
    // A glob whose '*' stands for one dotted component, matched from any component of the key to the
    // end of one: "model.layers.*.self_attn" covers "model.layers.3.self_attn.q_proj.weight", "lm_head"
    // covers "lm_head.weight" (transformers matches module names by prefix and by substring).
    const auto matchesAt = [&](std::size_t start) {
        std::size_t k = start;
        for (std::size_t p = 0; p < pattern.size(); ++p) {
            if (pattern[p] == '*') {
                while (k < key.size() && key[k] != '.') {
                    ++k;
                }
            } else if (k < key.size() && key[k] == pattern[p]) {
                ++k;
            } else {
                return false;
            }
        }
        return k == key.size() || key[k] == '.';
    };
    for (std::size_t start = 0; start <= key.size(); start = key.find('.', start) + 1) {
        if (matchesAt(start)) {
            return true;
        }
        if (key.find('.', start) == std::string_view::npos) {
            break;
        }
    }
    return false;
}

WeightMemory weightMemory(const ModelConfig& config, const ModelPlan& plan, WeightFormat format) {
    WeightMemory memory;
    memory.format = format;
    Checked total, lookup, quantised;
    std::array<Checked, kComponentCount> components{};
    // In the format the checkpoint ships in, the modules it leaves unquantised stay 16-bit too.
    const bool asShipped = shippedFormat(config) == format && !config.shipped->keptModules.empty();
    const auto kept = [&](const TensorSpec& tensor, const LayerPlan* layer) {
        if (!asShipped) {
            return false;
        }
        const std::string key = checkpointKey(config, tensor, layer);
        return std::any_of(config.shipped->keptModules.begin(), config.shipped->keptModules.end(),
                           [&](const std::string& pattern) { return moduleMatches(pattern, key); });
    };
    const auto add = [&](const TensorSpec& tensor, Checked bytes, Checked times, bool unquantised) {
        const Checked all = bytes * times;
        total += all;
        components[static_cast<std::size_t>(tensor.component)] += all;
        if (tensor.use == TensorUse::Lookup) {
            lookup += all;
        }
        const bool quantisedHere =
            !unquantised && (isGguf(format) ? tensor.shape.size() >= 2 && tensor.use != TensorUse::Convolution &&
                                                  tensor.component != Component::Router
                                            : format > WeightFormat::BF16 && quantisedByHf(tensor));
        if (quantisedHere) {
            quantised += tensor.total() * times;
        }
    };
    const auto storedAs = [&](const TensorSpec& tensor, const LayerPlan* layer, bool moreBits) {
        return kept(tensor, layer) ? tensor.total() * Checked(2) : storedBytes(tensor, format, moreBits);
    };
    for (const TensorSpec& tensor : outerTensors(config)) {
        add(tensor, storedAs(tensor, nullptr, false), 1, kept(tensor, nullptr));
    }
    // Layers of one kind share their tensors: count each kind once for its ordinary layers and once for
    // the layers llama.cpp's mixes give more bits.
    struct Kind {
        LayerPlan plan;
        std::uint64_t ordinary = 0, more = 0;
    };
    std::vector<Kind> kinds;
    std::int64_t decoderLayers = 0, encoderLayers = 0;
    for (const LayerPlan& layer : plan.layers) {
        (layer.stack == Stack::Decoder ? decoderLayers : encoderLayers) += 1;
    }
    for (const LayerPlan& layer : plan.layers) {
        auto found = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& k) { return sameKind(k.plan, layer); });
        if (found == kinds.end()) {
            kinds.push_back({layer});
            found = std::prev(kinds.end());
        }
        const bool more = ggufMoreBits(layer.index, layer.stack == Stack::Decoder ? decoderLayers : encoderLayers);
        (more ? found->more : found->ordinary) += 1;
    }
    for (const Kind& kind : kinds) {
        for (const TensorSpec& tensor : layerTensors(config, kind.plan)) {
            const bool unquantised = kept(tensor, &kind.plan);
            if (kind.ordinary > 0) {
                add(tensor, storedAs(tensor, &kind.plan, false), kind.ordinary, unquantised);
            }
            if (kind.more > 0) {
                add(tensor, storedAs(tensor, &kind.plan, true), kind.more, unquantised);
            }
        }
    }
    memory.overflow = total.overflowed() || quantised.overflowed();
    memory.bytes = total.value();
    memory.lookupBytes = lookup.value();
    memory.quantisedParams = quantised.value();
    for (std::size_t i = 0; i < kComponentCount; ++i) {
        memory.byComponent[i] = components[i].value();
    }
    return memory;
}

} // namespace archplay::core

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/LayerPlan.h"
#include "core/config/ModelConfig.h"
#include "core/params/Tensors.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// How the weights of a served checkpoint are stored (FORMULAS.md §6.3).
enum class WeightFormat {
    FP32,
    FP16,
    BF16,
    FP8,         ///< FP8 E4M3, one fp32 scale per tensor
    FP8Block128, ///< FP8 with an fp32 scale per 128 x 128 block (DeepSeek-V3 weight_block_size)
    INT8,        ///< bitsandbytes LLM.int8: int8 with an fp32 scale per output row
    Int4G128,    ///< GPTQ / AWQ int4, group 128: fp16 scale and 4-bit zero per group
    Int4G32,     ///< GPTQ / AWQ int4, group 32
    NF4,         ///< bitsandbytes NF4, block 64, double-quantised absmax (QLoRA)
    MXFP4,       ///< OCP MX FP4 (E2M1) with an E8M0 scale per 32
    NVFP4,       ///< NVIDIA FP4 (E2M1) with an E4M3 scale per 16 and an fp32 scale per tensor
    Q8_0,        ///< GGUF: 32 int8 and an fp16 scale per block
    Q6_K,        ///< GGUF: 210 bytes per 256 weights
    Q5_K_M,      ///< GGUF: llama.cpp's mix of Q5_K with Q6_K for some tensors
    Q4_K_M,      ///< GGUF: llama.cpp's mix of Q4_K with Q6_K (and Q5_K) for some tensors
    Q4_0,        ///< GGUF: 32 4-bit weights and an fp16 scale per block
};

/// What a format is and what it costs per weight.
struct WeightFormatInfo {
    WeightFormat format = WeightFormat::BF16;
    std::string_view id;      ///< "gptq-int4-g128": the command line's and files' name
    std::string_view name;    ///< "GPTQ/AWQ int4 g128"
    double bitsPerWeight = 0; ///< of a quantised matrix, scales and zero points included: 4.15625
    /// The layout the size follows and what stays unquantised.
    std::string_view layout;
    bool fp8Compute = false; ///< the matmuls run in FP8 (W8A8) on a device with FP8 units
};

/// Every format, widest first.
const std::vector<WeightFormatInfo>& weightFormats();
const WeightFormatInfo& formatInfo(WeightFormat format);
/// Reads a format id ("bf16", "gptq-int4-g128", "q4_k_m", any case); "int4" reads as GPTQ/AWQ g128.
std::optional<WeightFormat> parseWeightFormat(std::string_view id);
/// "fp32, fp16, ...": every id, for messages.
std::string weightFormatIdList();

/// Bytes of `tensor` (all its copies) stored in `format`. `moreBits`: the layer is one that
/// llama.cpp's mixes give more bits (use_more_bits: the first and last eighth, every third between).
[[nodiscard]] Checked storedBytes(const TensorSpec& tensor, WeightFormat format, bool moreBits);

/// The weights of a whole model in one format.
struct WeightMemory {
    WeightFormat format = WeightFormat::BF16;
    std::uint64_t bytes = 0;                                  ///< Units: bytes.
    std::array<std::uint64_t, kComponentCount> byComponent{}; ///< Units: bytes.
    std::uint64_t lookupBytes = 0;     ///< tables a token reads one row of (embeddings, positions). Units: bytes.
    std::uint64_t quantisedParams = 0; ///< parameters stored in the format's quantised form
    bool overflow = false;

    std::uint64_t component(Component c) const { return byComponent[static_cast<std::size_t>(c)]; }
};

/// The format the checkpoint ships in (config.shipped), when it is one of archplay's.
std::optional<WeightFormat> shippedFormat(const ModelConfig& config);
/// The format's name as every view and export labels the weights: "MXFP4 (E2M1, scale per 32) as shipped"
/// when it is the one the checkpoint ships in, else its name.
std::string weightFormatLabel(const ModelConfig& config, WeightFormat format);
/// What the checkpoint's quantization_config says and what archplay made of it, for notes: "shipped as
/// mxfp4 (quantization_config); left in 16 bits: model.layers.*.self_attn, lm_head"; empty without one.
std::string shippedWeightsNote(const ModelConfig& config);
/// True when a module pattern of quantization_config ("model.layers.*.self_attn", "lm_head") covers the
/// checkpoint key ("model.layers.3.self_attn.q_proj.weight"): '*' stands for one dotted component,
/// and the pattern may start at any component and must end at one.
bool moduleMatches(std::string_view pattern, std::string_view key);

/// Sums storedBytes() over every counted tensor of the model: in a quantised format, embeddings,
/// the output head, routers, norms, biases and convolutions stay 16-bit (GGUF: 1-D tensors in fp32,
/// the output head in Q6_K), as the formats' tools store them. In the format the checkpoint ships in,
/// the modules its quantization_config leaves out stay 16-bit as well (gpt-oss: attention, router).
[[nodiscard]] WeightMemory weightMemory(const ModelConfig& config, const ModelPlan& plan, WeightFormat format);

/// llama.cpp's use_more_bits(i, n): layer i of n gets more bits in the _M mixes.
bool ggufMoreBits(std::int64_t layer, std::int64_t layers);

} // namespace archplay::core

// SPDX-License-Identifier: GPL-3.0-or-later
// Each family's module paths, from its transformers modeling file (src/transformers/models/...):
// bert/modeling_bert.py (BertEmbeddings, BertSelfAttention, BertSelfOutput, BertIntermediate, BertOutput,
// BertPooler), t5/modeling_t5.py (T5LayerSelfAttention, T5LayerCrossAttention, T5DenseActDense,
// T5DenseGatedActDense, T5Stack), bart/modeling_bart.py (BartAttention, BartEncoderLayer,
// BartDecoderLayer), opt/modeling_opt.py (OPTDecoder, OPTDecoderLayer), gpt2/modeling_gpt2.py (Conv1D
// c_attn, c_proj, c_fc), gptj/modeling_gptj.py, gpt_neox/modeling_gpt_neox.py, falcon/modeling_falcon.py,
// bloom/modeling_bloom.py, phi/modeling_phi.py, phi3/modeling_phi3.py (Phi3MLP's fused gate_up_proj),
// mamba/modeling_mamba.py (MambaModel's backbone: embeddings, layers.N.norm and .mixer, norm_f), and the
// 2025-2026 families' own modules: starcoder2, qwen2_moe and qwen3_next (shared_expert), qwen3_5 (the
// split in_proj_*), glm4, apertus, hunyuan_v1_moe, ernie4_5_moe, llama4 (fused experts stored
// [E, H, 2I]), gpt_oss, granitemoehybrid (block_sparse_moe.input_linear), falcon_h1, lfm2.
#include "core/params/TensorNames.h"

#include <fmt/format.h>

namespace archplay::core::tensornames {
namespace {

/// "encoder." or "decoder." for the stacks of an encoder-decoder model, else nothing.
std::string stackPrefix(const ModelConfig& c, Stack stack) {
    if (c.architecture != ArchitectureKind::EncoderDecoder) {
        return {};
    }
    return stack == Stack::Encoder ? "encoder." : "decoder.";
}

AttentionNames projections(const std::string& scope, const char* o = "o_proj") {
    return {scope + ".q_proj", scope + ".k_proj", scope + ".v_proj", scope + ".qkv_proj", scope + "." + o};
}

LayerNames llamaLayer(const ModelConfig& c) {
    LayerNames n;
    n.self = projections("self_attn");
    n.cross = projections("cross_attn");
    n.qNorm = "self_attn.q_norm";
    n.kNorm = "self_attn.k_norm";
    n.up = "mlp.up_proj";
    n.down = "mlp.down_proj";
    n.gate = "mlp.gate_proj";
    n.gatedUp = "mlp.up_proj";
    n.gatedDown = "mlp.down_proj";
    n.attentionNorm = "input_layernorm";
    n.crossNorm = "cross_attn_layernorm";
    n.ffnNorm = "post_attention_layernorm";
    if (c.normPlacement == NormPlacement::ParallelDouble) {
        // Falcon-40B's names, the family that has two norms in parallel.
        n.attentionNorm = "ln_attn";
        n.ffnNorm = "ln_mlp";
    }
    return n;
}

/// The in-and-out pair of a plain MLP.
void mlp(LayerNames& n, std::string up, std::string down) {
    n.up = std::move(up);
    n.down = std::move(down);
}

} // namespace

LayerNames layerNames(const ModelConfig& c, const LayerPlan& layer) {
    LayerNames n = llamaLayer(c);
    switch (c.tensorNaming) {
    case TensorNaming::Llama:
        break;
    case TensorNaming::Bert:
        n.self.q = "attention.self.query";
        n.self.k = "attention.self.key";
        n.self.v = "attention.self.value";
        n.self.o = "attention.output.dense";
        n.cross.q = "crossattention.self.query";
        n.cross.k = "crossattention.self.key";
        n.cross.v = "crossattention.self.value";
        n.cross.o = "crossattention.output.dense";
        mlp(n, "intermediate.dense", "output.dense");
        n.attentionNorm = "attention.output.LayerNorm";
        n.crossNorm = "crossattention.output.LayerNorm";
        n.ffnNorm = "output.LayerNorm";
        break;
    case TensorNaming::T5: {
        // T5Block: layer.0 self-attention, layer.1 cross-attention (decoder only), then the FFN.
        const std::string ffn = layer.crossAttention ? "layer.2." : "layer.1.";
        n.self = {"layer.0.SelfAttention.q", "layer.0.SelfAttention.k", "layer.0.SelfAttention.v", n.self.qkv,
                  "layer.0.SelfAttention.o"};
        n.cross = {"layer.1.EncDecAttention.q", "layer.1.EncDecAttention.k", "layer.1.EncDecAttention.v", n.cross.qkv,
                   "layer.1.EncDecAttention.o"};
        mlp(n, ffn + "DenseReluDense.wi", ffn + "DenseReluDense.wo");
        n.gate = ffn + "DenseReluDense.wi_0";
        n.gatedUp = ffn + "DenseReluDense.wi_1";
        n.gatedDown = ffn + "DenseReluDense.wo";
        n.attentionNorm = "layer.0.layer_norm";
        n.crossNorm = "layer.1.layer_norm";
        n.ffnNorm = ffn + "layer_norm";
        break;
    }
    case TensorNaming::Bart:
    case TensorNaming::Opt:
        n.self = projections("self_attn", "out_proj");
        n.cross = projections("encoder_attn", "out_proj");
        mlp(n, "fc1", "fc2");
        n.attentionNorm = "self_attn_layer_norm";
        n.crossNorm = "encoder_attn_layer_norm";
        n.ffnNorm = "final_layer_norm";
        break;
    case TensorNaming::Gpt2:
        n.self.qkv = "attn.c_attn";
        n.self.o = "attn.c_proj";
        mlp(n, "mlp.c_fc", "mlp.c_proj");
        n.conv1d = true;
        n.attentionNorm = "ln_1";
        n.crossNorm = "ln_cross_attn";
        n.ffnNorm = "ln_2";
        break;
    case TensorNaming::GptJ:
        n.self = projections("attn", "out_proj");
        mlp(n, "mlp.fc_in", "mlp.fc_out");
        n.attentionNorm = "ln_1";
        break;
    case TensorNaming::GptNeox:
        n.self.qkv = "attention.query_key_value";
        n.self.o = "attention.dense";
        mlp(n, "mlp.dense_h_to_4h", "mlp.dense_4h_to_h");
        // GPT-NeoX names its two norms alike whether they run in parallel or in sequence.
        n.attentionNorm = "input_layernorm";
        n.ffnNorm = "post_attention_layernorm";
        break;
    case TensorNaming::Falcon:
    case TensorNaming::Bloom:
        n.self.qkv = "self_attention.query_key_value";
        n.self.o = "self_attention.dense";
        mlp(n, "mlp.dense_h_to_4h", "mlp.dense_4h_to_h");
        break;
    case TensorNaming::Phi:
        n.self.o = "self_attn.dense";
        n.qNorm = "self_attn.q_layernorm";
        n.kNorm = "self_attn.k_layernorm";
        mlp(n, "mlp.fc1", "mlp.fc2");
        break;
    case TensorNaming::Phi3:
        n.gateUp = "mlp.gate_up_proj";
        break;
    case TensorNaming::Mamba:
        n.attentionNorm = "norm"; // MambaBlock, Mamba2Block: one RMSNorm before the mixer
        n.mamba2 = "mixer";
        break;
    case TensorNaming::Starcoder2:
        mlp(n, "mlp.c_fc", "mlp.c_proj"); // nn.Linear, despite GPT-2's names
        break;
    case TensorNaming::QwenMoe:
        n.moe.shared = "mlp.shared_expert";
        break;
    case TensorNaming::Qwen35:
        n.splitDeltaNetProjections = true;
        n.moe.shared = "mlp.shared_expert"; // Qwen3.5-MoE
        break;
    case TensorNaming::Glm4:
        n.gateUp = "mlp.gate_up_proj";
        n.sandwichNorms = {"input_layernorm", "post_self_attn_layernorm", "post_attention_layernorm",
                           "post_mlp_layernorm"};
        break;
    case TensorNaming::Apertus:
        n.attentionNorm = "attention_layernorm";
        n.ffnNorm = "feedforward_layernorm";
        break;
    case TensorNaming::Hunyuan:
        n.qNorm = "self_attn.query_layernorm";
        n.kNorm = "self_attn.key_layernorm";
        n.moe.router = "mlp.gate.wg";
        n.moe.shared = "mlp.shared_mlp";
        break;
    case TensorNaming::Ernie45Moe:
        n.moe.correctionBias = "mlp.moe_statics.e_score_correction_bias";
        n.moe.correctionBiasRow = true;
        break;
    case TensorNaming::Llama4:
        n.gate = "feed_forward.gate_proj";
        n.gatedUp = "feed_forward.up_proj";
        n.gatedDown = "feed_forward.down_proj";
        n.moe.router = "feed_forward.router";
        n.moe.experts = "feed_forward.experts";
        n.moe.storage = ExpertStorage::FusedInFirst;
        n.moe.shared = "feed_forward.shared_expert";
        break;
    case TensorNaming::GptOss:
        n.moe.router = "mlp.router";
        n.moe.storage = ExpertStorage::FusedInFirst;
        break;
    case TensorNaming::GraniteHybrid:
        // The shared MLP is the dense FFN of a hybrid without experts, and beside the experts otherwise.
        n.gateUp = "shared_mlp.input_linear";
        n.gatedDown = "shared_mlp.output_linear";
        n.moe.router = "block_sparse_moe.router.layer";
        n.moe.experts = "block_sparse_moe.experts";
        n.moe.storage = ExpertStorage::FusedLinear;
        n.moe.sharedGateUp = "shared_mlp.input_linear";
        n.moe.sharedDown = "shared_mlp.output_linear";
        break;
    case TensorNaming::FalconH1:
        n.gate = "feed_forward.gate_proj";
        n.gatedUp = "feed_forward.up_proj";
        n.gatedDown = "feed_forward.down_proj";
        n.ffnNorm = "pre_ff_layernorm";
        break;
    case TensorNaming::Lfm2:
        n.self.o = "self_attn.out_proj";
        n.qNorm = "self_attn.q_layernorm";
        n.kNorm = "self_attn.k_layernorm";
        n.gate = "feed_forward.w1";
        n.gatedUp = "feed_forward.w3";
        n.gatedDown = "feed_forward.w2";
        n.attentionNorm = "operator_norm";
        n.ffnNorm = "ffn_norm";
        break;
    }
    return n;
}

OuterNames outerNames(const ModelConfig& c) {
    OuterNames n{"embed_tokens", "token_type_embeddings", "project_in", "project_out", "lm_head", "pooler.dense"};
    switch (c.tensorNaming) {
    case TensorNaming::Llama:
    case TensorNaming::Phi:
    case TensorNaming::Phi3:
        break;
    case TensorNaming::Bert:
        n.tokens = "embeddings.word_embeddings";
        n.tokenTypes = "embeddings.token_type_embeddings";
        break;
    case TensorNaming::T5:
    case TensorNaming::Bart:
        n.tokens = "shared"; // the encoder's and decoder's embed_tokens are the same tensor
        break;
    case TensorNaming::Opt:
        n.tokens = "decoder.embed_tokens";
        n.projectIn = "decoder.project_in";
        n.projectOut = "decoder.project_out";
        break;
    case TensorNaming::Gpt2:
    case TensorNaming::GptJ:
        n.tokens = "wte";
        break;
    case TensorNaming::GptNeox:
        n.tokens = "embed_in";
        n.head = "embed_out";
        break;
    case TensorNaming::Falcon:
    case TensorNaming::Bloom:
        n.tokens = "word_embeddings";
        break;
    case TensorNaming::Mamba:
        n.tokens = "embeddings";
        break;
    case TensorNaming::Starcoder2:
    case TensorNaming::QwenMoe:
    case TensorNaming::Qwen35:
    case TensorNaming::Glm4:
    case TensorNaming::Apertus:
    case TensorNaming::Hunyuan:
    case TensorNaming::Ernie45Moe:
    case TensorNaming::Llama4:
    case TensorNaming::GptOss:
    case TensorNaming::GraniteHybrid:
    case TensorNaming::FalconH1:
    case TensorNaming::Lfm2:
        break;
    }
    return n;
}

StackNames stackNames(const ModelConfig& c, Stack stack) {
    const std::string prefix = stackPrefix(c, stack);
    StackNames n{prefix + "embed_positions", prefix + "relative_attention_bias", prefix + "embedding_layernorm",
                 prefix + "norm"};
    switch (c.tensorNaming) {
    case TensorNaming::Llama:
    case TensorNaming::Phi3:
        break;
    case TensorNaming::Bert:
        n.positions = "embeddings.position_embeddings";
        n.embeddingNorm = "embeddings.LayerNorm";
        break;
    case TensorNaming::T5:
        // T5 keeps the table in block 0 of each stack (has_relative_attention_bias).
        n.relativeBias = prefix + "block.0.layer.0.SelfAttention.relative_attention_bias";
        n.finalNorm = prefix + "final_layer_norm";
        break;
    case TensorNaming::Bart:
        n.embeddingNorm = prefix + "layernorm_embedding";
        n.finalNorm = prefix + "layer_norm"; // mBART's; BART itself has none
        break;
    case TensorNaming::Opt: {
        const std::string decoder = prefix.empty() ? std::string("decoder.") : prefix;
        n.positions = decoder + "embed_positions";
        n.finalNorm = decoder + "final_layer_norm";
        break;
    }
    case TensorNaming::Gpt2:
        n.positions = "wpe";
        n.finalNorm = "ln_f";
        break;
    case TensorNaming::GptJ:
    case TensorNaming::Falcon:
        n.finalNorm = "ln_f";
        break;
    case TensorNaming::Bloom:
        n.embeddingNorm = "word_embeddings_layernorm";
        n.finalNorm = "ln_f";
        break;
    case TensorNaming::GptNeox:
        n.finalNorm = "final_layer_norm";
        break;
    case TensorNaming::Phi:
        n.finalNorm = "final_layernorm";
        break;
    case TensorNaming::Mamba:
        n.finalNorm = "norm_f";
        break;
    case TensorNaming::FalconH1:
        n.finalNorm = "final_layernorm";
        break;
    case TensorNaming::Lfm2:
        n.finalNorm = "embedding_norm"; // Lfm2Model's last norm, despite its name
        break;
    case TensorNaming::Starcoder2:
    case TensorNaming::QwenMoe:
    case TensorNaming::Qwen35:
    case TensorNaming::Glm4:
    case TensorNaming::Apertus:
    case TensorNaming::Hunyuan:
    case TensorNaming::Ernie45Moe:
    case TensorNaming::Llama4:
    case TensorNaming::GptOss:
    case TensorNaming::GraniteHybrid:
        break;
    }
    return n;
}

std::string layerPath(const ModelConfig& c, const LayerPlan& layer) {
    const std::string prefix = stackPrefix(c, layer.stack);
    switch (c.tensorNaming) {
    case TensorNaming::Bert:
        return fmt::format("{}encoder.layer.{}.", prefix, layer.index);
    case TensorNaming::T5:
        return fmt::format("{}block.{}.", prefix, layer.index);
    case TensorNaming::Opt:
        return fmt::format("{}layers.{}.", prefix.empty() ? std::string("decoder.") : prefix, layer.index);
    case TensorNaming::Gpt2:
    case TensorNaming::GptJ:
    case TensorNaming::Falcon:
    case TensorNaming::Bloom:
        return fmt::format("{}h.{}.", prefix, layer.index);
    case TensorNaming::Llama:
    case TensorNaming::Bart:
    case TensorNaming::GptNeox:
    case TensorNaming::Phi:
    case TensorNaming::Phi3:
    case TensorNaming::Mamba:
    case TensorNaming::Starcoder2:
    case TensorNaming::QwenMoe:
    case TensorNaming::Qwen35:
    case TensorNaming::Glm4:
    case TensorNaming::Apertus:
    case TensorNaming::Hunyuan:
    case TensorNaming::Ernie45Moe:
    case TensorNaming::Llama4:
    case TensorNaming::GptOss:
    case TensorNaming::GraniteHybrid:
    case TensorNaming::FalconH1:
    case TensorNaming::Lfm2:
        break;
    }
    return fmt::format("{}layers.{}.", prefix, layer.index);
}

std::string_view baseModelPrefix(const ModelConfig& c) {
    switch (c.tensorNaming) {
    case TensorNaming::Bert:
    case TensorNaming::T5:
        return "";
    case TensorNaming::Gpt2:
    case TensorNaming::GptJ:
    case TensorNaming::Falcon:
    case TensorNaming::Bloom:
        return "transformer.";
    case TensorNaming::GptNeox:
        return "gpt_neox.";
    case TensorNaming::Mamba:
        return "backbone.";
    case TensorNaming::Llama:
    case TensorNaming::Bart:
    case TensorNaming::Opt:
    case TensorNaming::Phi:
    case TensorNaming::Phi3:
    case TensorNaming::Starcoder2:
    case TensorNaming::QwenMoe:
    case TensorNaming::Qwen35:
    case TensorNaming::Glm4:
    case TensorNaming::Apertus:
    case TensorNaming::Hunyuan:
    case TensorNaming::Ernie45Moe:
    case TensorNaming::Llama4:
    case TensorNaming::GptOss:
    case TensorNaming::GraniteHybrid:
    case TensorNaming::FalconH1:
    case TensorNaming::Lfm2:
        break;
    }
    return "model.";
}

std::string transformersKey(const ModelConfig& c, std::string key) {
    const auto rename = [&key](std::string_view from, std::string_view to) {
        if (const std::size_t at = key.find(from); at != std::string::npos) {
            key.replace(at, from.size(), to);
        }
    };
    switch (c.tensorNaming) {
    case TensorNaming::GptNeox:
        if (key.starts_with("embed_out.")) {
            rename("embed_out.", "lm_head.");
        }
        break;
    case TensorNaming::GraniteHybrid:
        rename(".block_sparse_moe.router.layer.", ".block_sparse_moe.router.");
        break;
    case TensorNaming::Ernie45Moe:
        rename(".mlp.moe_statics.", ".mlp.gate.moe_statics.");
        break;
    default:
        break;
    }
    return key;
}

} // namespace archplay::core::tensornames

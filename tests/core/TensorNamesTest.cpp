// SPDX-License-Identifier: GPL-3.0-or-later
// Each family's tensors carry its checkpoint's names, storage order and fusions: the state-dict keys
// and shapes of one layer and of the tensors outside the layers, as the published checkpoints store
// them (keys of the counted class: BertModel, T5ForConditionalGeneration, GPT2LMHeadModel, ...).
#include "core/params/Tensors.h"
#include "core/report/ReportJson.h"
#include "core/report/Tables.h"
#include "tests/support/TestSupport.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace archplay::test {
namespace {

/// State-dict key -> stored shape.
using Keys = std::map<std::string, std::vector<std::uint64_t>>;

std::vector<std::uint64_t> dims(const core::TensorSpec& tensor) {
    std::vector<std::uint64_t> result;
    for (core::Checked d : tensor.shape) {
        result.push_back(d.value());
    }
    return result;
}

/// The first layer of `stack`.
const core::LayerPlan& firstLayer(const core::Analysis& analysis, core::Stack stack = core::Stack::Decoder) {
    for (const core::LayerPlan& layer : analysis.plan.layers) {
        if (layer.stack == stack || !analysis.config.hasDecoder()) {
            return layer;
        }
    }
    ADD_FAILURE() << "no layer in that stack";
    return analysis.plan.layers.front();
}

Keys layerKeys(const core::Analysis& analysis, core::Stack stack = core::Stack::Decoder) {
    const core::LayerPlan& layer = firstLayer(analysis, stack);
    Keys keys;
    for (const core::TensorSpec& tensor : core::layerTensors(analysis.config, layer)) {
        EXPECT_EQ(tensor.copies, 1) << tensor.name;
        EXPECT_TRUE(keys.emplace(core::checkpointKey(analysis.config, tensor, &layer), dims(tensor)).second)
            << "two tensors named " << tensor.name;
    }
    return keys;
}

Keys outerKeys(const core::Analysis& analysis) {
    Keys keys;
    for (const core::TensorSpec& tensor : core::outerTensors(analysis.config)) {
        EXPECT_TRUE(keys.emplace(core::checkpointKey(analysis.config, tensor), dims(tensor)).second)
            << "two tensors named " << tensor.name;
    }
    return keys;
}

/// weight [out, in] and bias [out] of an nn.Linear.
void linear(Keys& keys, const std::string& name, std::uint64_t in, std::uint64_t out, bool bias = true) {
    keys[name + ".weight"] = {out, in};
    if (bias) {
        keys[name + ".bias"] = {out};
    }
}

void layerNorm(Keys& keys, const std::string& name, std::uint64_t width, bool bias = true) {
    keys[name + ".weight"] = {width};
    if (bias) {
        keys[name + ".bias"] = {width};
    }
}

TEST(TensorNames, LlamaKeepsItsNames) {
    // meta-llama/Meta-Llama-3-8B model.safetensors.index.json.
    const core::Analysis llama = analyzePreset("llama-3-8b");
    EXPECT_EQ(llama.config.tensorNaming, core::TensorNaming::Llama);
    Keys layer;
    const std::string p = "model.layers.0.";
    linear(layer, p + "self_attn.q_proj", 4096, 4096, false);
    linear(layer, p + "self_attn.k_proj", 4096, 1024, false);
    linear(layer, p + "self_attn.v_proj", 4096, 1024, false);
    linear(layer, p + "self_attn.o_proj", 4096, 4096, false);
    linear(layer, p + "mlp.gate_proj", 4096, 14336, false);
    linear(layer, p + "mlp.up_proj", 4096, 14336, false);
    linear(layer, p + "mlp.down_proj", 14336, 4096, false);
    layerNorm(layer, p + "input_layernorm", 4096, false);
    layerNorm(layer, p + "post_attention_layernorm", 4096, false);
    EXPECT_EQ(layerKeys(llama), layer);
    const Keys outer{{"model.embed_tokens.weight", {128256, 4096}},
                     {"model.norm.weight", {4096}},
                     {"lm_head.weight", {128256, 4096}}};
    EXPECT_EQ(outerKeys(llama), outer);
}

TEST(TensorNames, BertUsesItsModuleNames) {
    // google-bert/bert-base-uncased stores BertForPreTraining: the same keys behind "bert."
    // (bert.encoder.layer.0.attention.self.query.weight [768, 768]); archplay counts BertModel.
    const core::Analysis bert = analyzePreset("bert-base-uncased");
    EXPECT_EQ(bert.config.tensorNaming, core::TensorNaming::Bert);
    Keys layer;
    const std::string p = "encoder.layer.0.";
    linear(layer, p + "attention.self.query", 768, 768);
    linear(layer, p + "attention.self.key", 768, 768);
    linear(layer, p + "attention.self.value", 768, 768);
    linear(layer, p + "attention.output.dense", 768, 768);
    layerNorm(layer, p + "attention.output.LayerNorm", 768);
    linear(layer, p + "intermediate.dense", 768, 3072);
    linear(layer, p + "output.dense", 3072, 768);
    layerNorm(layer, p + "output.LayerNorm", 768);
    EXPECT_EQ(layerKeys(bert), layer);
    Keys outer{{"embeddings.word_embeddings.weight", {30522, 768}},
               {"embeddings.position_embeddings.weight", {512, 768}},
               {"embeddings.token_type_embeddings.weight", {2, 768}}};
    layerNorm(outer, "embeddings.LayerNorm", 768);
    linear(outer, "pooler.dense", 768, 768);
    EXPECT_EQ(outerKeys(bert), outer);
}

TEST(TensorNames, NoLlamaNamesInFamiliesThatHaveTheirOwn) {
    // The defect: BERT showed self_attn.q_proj, T5 mlp.up_proj.
    for (const char* id : {"bert-base-uncased", "t5-small", "flan-t5-base", "gpt-2", "pythia-160m", "falcon-7b",
                           "bloom-560m", "gpt-j-6b"}) {
        const core::Analysis analysis = analyzePreset(id);
        for (const core::LayerPlan& layer : analysis.plan.layers) {
            for (const core::TensorSpec& tensor : core::layerTensors(analysis.config, layer)) {
                for (const char* llama : {"self_attn.", "mlp.up_proj", "mlp.gate_proj", "mlp.down_proj",
                                          "input_layernorm", "post_attention_layernorm"}) {
                    if (analysis.config.tensorNaming == core::TensorNaming::GptNeox ||
                        analysis.config.tensorNaming == core::TensorNaming::Falcon ||
                        analysis.config.tensorNaming == core::TensorNaming::Bloom) {
                        // These three do name their norms input_layernorm / post_attention_layernorm.
                        if (std::string(llama).find("layernorm") != std::string::npos) {
                            continue;
                        }
                    }
                    EXPECT_EQ(tensor.name.find(llama), std::string::npos) << id << ": " << tensor.name;
                }
            }
        }
        for (const core::TensorSpec& tensor : core::outerTensors(analysis.config)) {
            EXPECT_EQ(tensor.name.find("embed_tokens"), std::string::npos) << id << ": " << tensor.name;
        }
    }
}

TEST(TensorNames, T5NamesItsSubLayers) {
    // google-t5/t5-small: ReLU DenseReluDense.wi / wo, relative_attention_bias in block 0, tied head.
    const core::Analysis t5 = analyzePreset("t5-small");
    EXPECT_EQ(t5.config.tensorNaming, core::TensorNaming::T5);
    Keys encoder;
    std::string p = "encoder.block.0.layer.";
    for (const char* proj : {"q", "k", "v", "o"}) {
        linear(encoder, p + "0.SelfAttention." + proj, 512, 512, false);
    }
    layerNorm(encoder, p + "0.layer_norm", 512, false);
    linear(encoder, p + "1.DenseReluDense.wi", 512, 2048, false);
    linear(encoder, p + "1.DenseReluDense.wo", 2048, 512, false);
    layerNorm(encoder, p + "1.layer_norm", 512, false);
    EXPECT_EQ(layerKeys(t5, core::Stack::Encoder), encoder);

    Keys decoder;
    p = "decoder.block.0.layer.";
    for (const char* proj : {"q", "k", "v", "o"}) {
        linear(decoder, p + "0.SelfAttention." + proj, 512, 512, false);
        linear(decoder, p + "1.EncDecAttention." + proj, 512, 512, false);
    }
    layerNorm(decoder, p + "0.layer_norm", 512, false);
    layerNorm(decoder, p + "1.layer_norm", 512, false);
    linear(decoder, p + "2.DenseReluDense.wi", 512, 2048, false);
    linear(decoder, p + "2.DenseReluDense.wo", 2048, 512, false);
    layerNorm(decoder, p + "2.layer_norm", 512, false);
    EXPECT_EQ(layerKeys(t5, core::Stack::Decoder), decoder);

    const Keys outer{{"shared.weight", {32128, 512}},
                     {"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", {32, 8}},
                     {"decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", {32, 8}},
                     {"encoder.final_layer_norm.weight", {512}},
                     {"decoder.final_layer_norm.weight", {512}}};
    EXPECT_EQ(outerKeys(t5), outer);
}

TEST(TensorNames, FlanT5HasGatedWiAndAnUntiedHead) {
    // google/flan-t5-base: gated-gelu, DenseReluDense.wi_0 / wi_1 / wo, lm_head apart.
    const core::Analysis flan = analyzePreset("flan-t5-base");
    const Keys layer = layerKeys(flan, core::Stack::Encoder);
    EXPECT_EQ(layer.at("encoder.block.0.layer.1.DenseReluDense.wi_0.weight"), (std::vector<std::uint64_t>{2048, 768}));
    EXPECT_EQ(layer.at("encoder.block.0.layer.1.DenseReluDense.wi_1.weight"), (std::vector<std::uint64_t>{2048, 768}));
    EXPECT_EQ(layer.at("encoder.block.0.layer.1.DenseReluDense.wo.weight"), (std::vector<std::uint64_t>{768, 2048}));
    EXPECT_EQ(layer.count("encoder.block.0.layer.1.DenseReluDense.wi.weight"), 0u);
    EXPECT_EQ(outerKeys(flan).at("lm_head.weight"), (std::vector<std::uint64_t>{32128, 768}));
}

TEST(TensorNames, BartNamesEncoderAndDecoderLayers) {
    // facebook/bart-base (BartForConditionalGeneration, base model under "model.").
    const core::Analysis bart = analyzePreset("bart-base");
    EXPECT_EQ(bart.config.tensorNaming, core::TensorNaming::Bart);
    Keys encoder;
    std::string p = "model.encoder.layers.0.";
    for (const char* proj : {"k_proj", "v_proj", "q_proj", "out_proj"}) {
        linear(encoder, p + "self_attn." + proj, 768, 768);
    }
    layerNorm(encoder, p + "self_attn_layer_norm", 768);
    linear(encoder, p + "fc1", 768, 3072);
    linear(encoder, p + "fc2", 3072, 768);
    layerNorm(encoder, p + "final_layer_norm", 768);
    EXPECT_EQ(layerKeys(bart, core::Stack::Encoder), encoder);

    Keys decoder;
    p = "model.decoder.layers.0.";
    for (const char* proj : {"k_proj", "v_proj", "q_proj", "out_proj"}) {
        linear(decoder, p + "self_attn." + proj, 768, 768);
        linear(decoder, p + "encoder_attn." + proj, 768, 768);
    }
    layerNorm(decoder, p + "self_attn_layer_norm", 768);
    layerNorm(decoder, p + "encoder_attn_layer_norm", 768);
    linear(decoder, p + "fc1", 768, 3072);
    linear(decoder, p + "fc2", 3072, 768);
    layerNorm(decoder, p + "final_layer_norm", 768);
    EXPECT_EQ(layerKeys(bart, core::Stack::Decoder), decoder);

    Keys outer{{"model.shared.weight", {50265, 768}},
               {"model.encoder.embed_positions.weight", {1026, 768}},
               {"model.decoder.embed_positions.weight", {1026, 768}}};
    layerNorm(outer, "model.encoder.layernorm_embedding", 768);
    layerNorm(outer, "model.decoder.layernorm_embedding", 768);
    EXPECT_EQ(outerKeys(bart), outer);
}

TEST(TensorNames, Gpt2StoresConv1DWeightsInFirst) {
    // openai-community/gpt2: attn.c_attn.weight [768, 2304] (Conv1D stores [in, out]), tied head.
    const core::Analysis gpt2 = analyzePreset("gpt-2");
    EXPECT_EQ(gpt2.config.tensorNaming, core::TensorNaming::Gpt2);
    Keys layer;
    const std::string p = "transformer.h.0.";
    layerNorm(layer, p + "ln_1", 768);
    layer[p + "attn.c_attn.weight"] = {768, 2304};
    layer[p + "attn.c_attn.bias"] = {2304};
    layer[p + "attn.c_proj.weight"] = {768, 768};
    layer[p + "attn.c_proj.bias"] = {768};
    layerNorm(layer, p + "ln_2", 768);
    layer[p + "mlp.c_fc.weight"] = {768, 3072};
    layer[p + "mlp.c_fc.bias"] = {3072};
    layer[p + "mlp.c_proj.weight"] = {3072, 768};
    layer[p + "mlp.c_proj.bias"] = {768};
    EXPECT_EQ(layerKeys(gpt2), layer);
    Keys outer{{"transformer.wte.weight", {50257, 768}}, {"transformer.wpe.weight", {1024, 768}}};
    layerNorm(outer, "transformer.ln_f", 768);
    EXPECT_EQ(outerKeys(gpt2), outer);

    for (const core::TensorSpec& tensor : core::layerTensors(gpt2.config, gpt2.plan.layers.front())) {
        EXPECT_EQ(tensor.inFirst, tensor.shape.size() == 2) << tensor.name << ": every GPT-2 matrix is a Conv1D";
    }
}

TEST(TensorNames, Phi3KeepsGateAndUpInOneTensor) {
    // microsoft/Phi-3-mini-4k-instruct: qkv_proj [3 x 3072, 3072], gate_up_proj [2 x 8192, 3072].
    const core::Analysis phi3 = analyzePreset("phi-3-mini-4k-instruct");
    EXPECT_EQ(phi3.config.tensorNaming, core::TensorNaming::Phi3);
    Keys layer;
    const std::string p = "model.layers.0.";
    linear(layer, p + "self_attn.qkv_proj", 3072, 9216, false);
    linear(layer, p + "self_attn.o_proj", 3072, 3072, false);
    linear(layer, p + "mlp.gate_up_proj", 3072, 2 * 8192, false);
    linear(layer, p + "mlp.down_proj", 8192, 3072, false);
    layerNorm(layer, p + "input_layernorm", 3072, false);
    layerNorm(layer, p + "post_attention_layernorm", 3072, false);
    EXPECT_EQ(layerKeys(phi3), layer);
    const Keys outer{
        {"model.embed_tokens.weight", {32064, 3072}}, {"model.norm.weight", {3072}}, {"lm_head.weight", {32064, 3072}}};
    EXPECT_EQ(outerKeys(phi3), outer);
}

TEST(TensorNames, Phi2NamesDenseAndFc) {
    // microsoft/phi-2: self_attn.dense, mlp.fc1 / fc2, one parallel input_layernorm, final_layernorm.
    const core::Analysis phi = analyzePreset("phi-2");
    Keys layer;
    const std::string p = "model.layers.0.";
    for (const char* proj : {"q_proj", "k_proj", "v_proj", "dense"}) {
        linear(layer, p + "self_attn." + proj, 2560, 2560);
    }
    linear(layer, p + "mlp.fc1", 2560, 10240);
    linear(layer, p + "mlp.fc2", 10240, 2560);
    layerNorm(layer, p + "input_layernorm", 2560);
    EXPECT_EQ(layerKeys(phi), layer);
    Keys outer{
        {"model.embed_tokens.weight", {51200, 2560}}, {"lm_head.weight", {51200, 2560}}, {"lm_head.bias", {51200}}};
    layerNorm(outer, "model.final_layernorm", 2560);
    EXPECT_EQ(outerKeys(phi), outer);
}

TEST(TensorNames, GptNeoxFusesQueryKeyValue) {
    // EleutherAI/pythia-160m: parallel residual, two norms named input_layernorm / post_attention_layernorm.
    const core::Analysis pythia = analyzePreset("pythia-160m");
    EXPECT_EQ(pythia.config.tensorNaming, core::TensorNaming::GptNeox);
    Keys layer;
    const std::string p = "gpt_neox.layers.0.";
    layerNorm(layer, p + "input_layernorm", 768);
    layerNorm(layer, p + "post_attention_layernorm", 768);
    linear(layer, p + "attention.query_key_value", 768, 2304);
    linear(layer, p + "attention.dense", 768, 768);
    linear(layer, p + "mlp.dense_h_to_4h", 768, 3072);
    linear(layer, p + "mlp.dense_4h_to_h", 3072, 768);
    EXPECT_EQ(layerKeys(pythia), layer);
    Keys outer{{"gpt_neox.embed_in.weight", {50304, 768}}, {"embed_out.weight", {50304, 768}}};
    layerNorm(outer, "gpt_neox.final_layer_norm", 768);
    EXPECT_EQ(outerKeys(pythia), outer);
}

TEST(TensorNames, FalconFusesQueryKeyValue) {
    // tiiuae/falcon-7b: multi-query, query_key_value [4544 + 2 x 64, 4544], one parallel norm.
    const core::Analysis falcon = analyzePreset("falcon-7b");
    EXPECT_EQ(falcon.config.tensorNaming, core::TensorNaming::Falcon);
    Keys layer;
    const std::string p = "transformer.h.0.";
    linear(layer, p + "self_attention.query_key_value", 4544, 4672, false);
    linear(layer, p + "self_attention.dense", 4544, 4544, false);
    linear(layer, p + "mlp.dense_h_to_4h", 4544, 18176, false);
    linear(layer, p + "mlp.dense_4h_to_h", 18176, 4544, false);
    layerNorm(layer, p + "input_layernorm", 4544);
    EXPECT_EQ(layerKeys(falcon), layer);
    Keys outer{{"transformer.word_embeddings.weight", {65024, 4544}}};
    layerNorm(outer, "transformer.ln_f", 4544);
    EXPECT_EQ(outerKeys(falcon), outer);

    // tiiuae/falcon-40b: the new decoder architecture's ln_attn and ln_mlp, 8 KV heads.
    const Keys big = layerKeys(analyzePreset("falcon-40b"));
    EXPECT_EQ(big.at("transformer.h.0.self_attention.query_key_value.weight"),
              (std::vector<std::uint64_t>{(128 + 2 * 8) * 64, 8192}));
    EXPECT_EQ(big.count("transformer.h.0.ln_attn.weight"), 1u);
    EXPECT_EQ(big.count("transformer.h.0.ln_mlp.bias"), 1u);
}

TEST(TensorNames, BloomNamesItsEmbeddingNorm) {
    // bigscience/bloom-560m.
    const core::Analysis bloom = analyzePreset("bloom-560m");
    EXPECT_EQ(bloom.config.tensorNaming, core::TensorNaming::Bloom);
    Keys layer;
    const std::string p = "transformer.h.0.";
    layerNorm(layer, p + "input_layernorm", 1024);
    linear(layer, p + "self_attention.query_key_value", 1024, 3072);
    linear(layer, p + "self_attention.dense", 1024, 1024);
    layerNorm(layer, p + "post_attention_layernorm", 1024);
    linear(layer, p + "mlp.dense_h_to_4h", 1024, 4096);
    linear(layer, p + "mlp.dense_4h_to_h", 4096, 1024);
    EXPECT_EQ(layerKeys(bloom), layer);
    Keys outer{{"transformer.word_embeddings.weight", {250880, 1024}}};
    layerNorm(outer, "transformer.word_embeddings_layernorm", 1024);
    layerNorm(outer, "transformer.ln_f", 1024);
    EXPECT_EQ(outerKeys(bloom), outer);
}

TEST(TensorNames, OptNamesItsDecoderAndProjections) {
    // facebook/opt-125m and facebook/opt-350m (post-norm, word_embed_proj_dim 512).
    const core::Analysis opt = analyzePreset("opt-125m");
    EXPECT_EQ(opt.config.tensorNaming, core::TensorNaming::Opt);
    Keys layer;
    const std::string p = "model.decoder.layers.0.";
    for (const char* proj : {"k_proj", "v_proj", "q_proj", "out_proj"}) {
        linear(layer, p + "self_attn." + proj, 768, 768);
    }
    layerNorm(layer, p + "self_attn_layer_norm", 768);
    linear(layer, p + "fc1", 768, 3072);
    linear(layer, p + "fc2", 3072, 768);
    layerNorm(layer, p + "final_layer_norm", 768);
    EXPECT_EQ(layerKeys(opt), layer);
    Keys outer{{"model.decoder.embed_tokens.weight", {50272, 768}},
               {"model.decoder.embed_positions.weight", {2050, 768}}};
    layerNorm(outer, "model.decoder.final_layer_norm", 768);
    EXPECT_EQ(outerKeys(opt), outer);

    const Keys projected{{"model.decoder.embed_tokens.weight", {50272, 512}},
                         {"model.decoder.embed_positions.weight", {2050, 1024}},
                         {"model.decoder.project_in.weight", {1024, 512}},
                         {"model.decoder.project_out.weight", {512, 1024}}};
    EXPECT_EQ(outerKeys(analyzePreset("opt-350m")), projected);
}

TEST(TensorNames, GptjNamesFcInAndOut) {
    // EleutherAI/gpt-j-6b: unbiased q/k/v/out_proj, biased mlp.fc_in / fc_out, lm_head with a bias.
    const core::Analysis gptj = analyzePreset("gpt-j-6b");
    EXPECT_EQ(gptj.config.tensorNaming, core::TensorNaming::GptJ);
    Keys layer;
    const std::string p = "transformer.h.0.";
    layerNorm(layer, p + "ln_1", 4096);
    for (const char* proj : {"q_proj", "k_proj", "v_proj", "out_proj"}) {
        linear(layer, p + "attn." + proj, 4096, 4096, false);
    }
    linear(layer, p + "mlp.fc_in", 4096, 16384);
    linear(layer, p + "mlp.fc_out", 16384, 4096);
    EXPECT_EQ(layerKeys(gptj), layer);
    Keys outer{{"transformer.wte.weight", {50400, 4096}}, {"lm_head.weight", {50400, 4096}}, {"lm_head.bias", {50400}}};
    layerNorm(outer, "transformer.ln_f", 4096);
    EXPECT_EQ(outerKeys(gptj), outer);
}

TEST(TensorNames, EveryPresetsTensorsSumToItsCount) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::Analysis analysis = analyzePreset(preset.info.id);
        core::Checked sum;
        for (const core::TensorSpec& tensor : core::outerTensors(analysis.config)) {
            sum += tensor.total();
        }
        for (const core::LayerPlan& layer : analysis.plan.layers) {
            for (const core::TensorSpec& tensor : core::layerTensors(analysis.config, layer)) {
                sum += tensor.total();
            }
        }
        EXPECT_EQ(sum.value(), analysis.params.total) << preset.info.id;
    }
}

TEST(TensorNames, FamilyReadersChooseTheNamesAndWritersKeepThem) {
    EXPECT_EQ(core::familyTensorNaming("bert"), core::TensorNaming::Bert);
    EXPECT_EQ(core::familyTensorNaming("phi3"), core::TensorNaming::Phi3);
    EXPECT_EQ(core::familyTensorNaming("mistral"), core::TensorNaming::Llama);
    EXPECT_EQ(core::familyTensorNaming("gemma3"), core::TensorNaming::Llama);
    EXPECT_EQ(core::familyTensorNaming("archplay"), std::nullopt);
    EXPECT_EQ(core::familyTensorNaming("no_such_family"), std::nullopt);

    const core::ModelConfig bert = preset("bert-base-uncased");
    const core::ImportResult again = core::importConfig(core::exportConfig(bert));
    ASSERT_TRUE(again.config.has_value());
    EXPECT_EQ(again.config->tensorNaming, core::TensorNaming::Bert);

    // A design BERT's config.json cannot express is saved natively and keeps BERT's names.
    core::ModelConfig gated = bert;
    gated.ffnKind = core::FfnKind::Gated;
    const nlohmann::json native = core::exportConfig(gated);
    EXPECT_EQ(native.value("model_type", ""), "archplay");
    EXPECT_EQ(native.value("tensor_names", ""), "bert");
    const core::ImportResult read = core::importConfig(native);
    ASSERT_TRUE(read.config.has_value());
    EXPECT_EQ(read.config->tensorNaming, core::TensorNaming::Bert);
}

/// The node of the first layer kind: Model / Layers / kind.
const core::ParamNode& firstKind(const core::ParamReport& params) {
    for (const core::ParamNode& child : params.breakdown.children) {
        if (child.name == "Layers") {
            return child.children.front();
        }
    }
    ADD_FAILURE() << "no Layers node";
    return params.breakdown;
}

TEST(PerLayerRows, ShowOneLayerTimesTheLayers) {
    const core::Analysis llama = analyzePreset("llama-3-8b");
    const core::ParamNode& kind = firstKind(llama.params);
    EXPECT_EQ(kind.layers, 32);
    EXPECT_EQ(kind.perLayer, 218112000u);
    EXPECT_EQ(core::perLayerEquation(kind), "218,112,000 × 32 layers = 6,979,584,000");
    EXPECT_EQ(core::perLayerText(kind.children.front()), "41,943,040 × 32 layers");
    EXPECT_EQ(core::perLayerText(llama.params.breakdown), "") << "the model is not a per-layer row";
    EXPECT_EQ(core::perLayerText(llama.params.breakdown.children.front()), "") << "nor are the embeddings";

    EXPECT_NE(core::breakdownMarkdown(llama.params).find("| 6,979,584,000 | 218,112,000 × 32 layers |"),
              std::string::npos);
    const std::string csv = core::breakdownCsv(llama.params);
    EXPECT_EQ(csv.rfind("component,parameters,share_percent,shape,per_layer,layers\n", 0), 0u);
    EXPECT_NE(csv.find(",6979584000,"), std::string::npos);
    EXPECT_NE(csv.find(",218112000,32\n"), std::string::npos);
    const nlohmann::json json = core::toJson(kind);
    EXPECT_EQ(json["per_layer"], 218112000u);
    EXPECT_EQ(json["layers"], 32);
}

/// Every row under a layer kind is its per-layer count times the layers.
void expectProducts(const core::ParamNode& node, const std::string& id) {
    if (node.repeated()) {
        const core::Checked product =
            core::Checked(node.perLayer) * core::Checked(static_cast<std::uint64_t>(node.layers));
        EXPECT_FALSE(product.overflowed()) << id << ": " << node.name;
        EXPECT_EQ(product.value(), node.params) << id << ": " << node.name;
    }
    for (const core::ParamNode& child : node.children) {
        if (node.repeated()) {
            EXPECT_EQ(child.layers, node.layers) << id << ": " << child.name;
        }
        expectProducts(child, id);
    }
}

TEST(PerLayerRows, EveryPresetsRowsAreProducts) {
    for (const core::Preset& preset : core::builtinPresets()) {
        const core::Analysis analysis = analyzePreset(preset.info.id);
        expectProducts(analysis.params.breakdown, preset.info.id);
    }
}

} // namespace
} // namespace archplay::test

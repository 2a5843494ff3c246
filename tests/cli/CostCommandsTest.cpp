// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli compute, memory, roofline and gpus, run in process.
#include "core/analysis/Analysis.h"
#include "core/cost/WeightFormats.h"
#include "core/io/GpuJson.h"
#include "tests/support/CliRunner.h"
#include "tests/support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace archplay::test {
namespace {

nlohmann::json jsonOf(const CliResult& result) {
    EXPECT_EQ(result.exitCode, 0) << result.err;
    return nlohmann::json::parse(result.out);
}

TEST(CliCompute, PrintsTheCoresFlopsAndTakesTheSequenceAndTokens) {
    const auto json = jsonOf(runCli({"compute", "llama-2-7b", "--seq", "2048", "--tokens", "2T", "--json"}));
    core::Scenario scenario = scenarioAt(2048);
    scenario.encoderSequenceLength = 512;
    scenario.trainingTokens = 2'000'000'000'000;
    const core::Analysis a = analyzePreset("llama-2-7b", scenario);
    EXPECT_EQ(json.at("flops_per_token"), a.compute.perToken);
    EXPECT_EQ(json.at("attention_flops_per_token"), 32ull * 2 * 32 * 256 * 2048);
    EXPECT_DOUBLE_EQ(json.at("prefill_flops").get<double>(), a.compute.prefill);
    EXPECT_DOUBLE_EQ(json.at("training_flops").get<double>(), a.compute.trainingFlops);
    EXPECT_EQ(json.at("chinchilla_tokens"), 20 * a.params.total);
    EXPECT_EQ(json.at("exact"), true);
    const CliResult text = runCli({"compute", "llama-2-7b"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("FLOPs per token"), std::string::npos);
    EXPECT_NE(text.out.find("Compute-optimal tokens"), std::string::npos);
    EXPECT_EQ(runCli({"compute", "llama-2-7b", "--tokens", "lots"}).exitCode, 2);
    EXPECT_EQ(runCli({"compute", "no-such-model"}).exitCode, 1);
}

TEST(CliMemory, ServingAndTrainingWithZeroTensorParallelAndRecompute) {
    const auto serving = jsonOf(runCli({"memory", "llama-3-8b", "--weights-dtype", "q4_k_m", "--json"}));
    EXPECT_EQ(serving.at("mode"), "serving");
    core::Scenario s;
    s.weightFormat = core::WeightFormat::Q4_K_M;
    const core::Analysis a = analyzePreset("llama-3-8b", s);
    EXPECT_EQ(serving.at("weights_bytes"), a.weightBytes);
    EXPECT_EQ(serving.at("kv_bytes"), a.kv.totalBytes);
    EXPECT_EQ(serving.at("total_bytes"), a.serving.totalBytes);
    EXPECT_EQ(serving.at("gpus_needed"), 1);
    for (const char* key : {"activation_bytes", "gradient_bytes", "optimizer_bytes", "per_gpu_bytes"}) {
        EXPECT_TRUE(serving.contains(key)) << key;
    }
    // Llama-2-7B, ZeRO-3 over 8 GPUs: each holds 1/8 of the 16 bytes per parameter.
    const auto training = jsonOf(
        runCli({"memory", "llama-2-7b", "--training", "--zero", "3", "--gpus", "8", "--recompute", "full", "--json"}));
    EXPECT_EQ(training.at("mode"), "training");
    const std::uint64_t p = 6'738'415'616;
    EXPECT_EQ(training.at("weights_bytes"), 2 * p);
    EXPECT_EQ(training.at("gradient_bytes"), 2 * p);
    EXPECT_EQ(training.at("optimizer_bytes"), 12 * p);
    EXPECT_EQ(training.at("training").at("gpu_weights_bytes"), 2 * p / 8);
    EXPECT_EQ(training.at("per_gpu_bytes").get<std::uint64_t>(),
              (2 * p + 2 * p + 12 * p) / 8 + training.at("activation_bytes").get<std::uint64_t>());
    // Tensor parallelism must divide the heads and the GPUs.
    const CliResult odd = runCli({"memory", "llama-2-7b", "--training", "--tp", "3", "--gpus", "3"});
    EXPECT_EQ(odd.exitCode, 1);
    EXPECT_NE(odd.err.find("tensor_parallel"), std::string::npos) << odd.err;
    EXPECT_EQ(runCli({"memory", "llama-2-7b", "--zero", "4"}).exitCode, 2);
    EXPECT_EQ(runCli({"memory", "llama-2-7b", "--weights-dtype", "int3"}).exitCode, 2);
}

TEST(CliRoofline, NeedsAGpuAndReportsUpperBounds) {
    const auto json =
        jsonOf(runCli({"roofline", "llama-3-8b", "--gpu", "h100-sxm", "--batch", "1", "--seq", "4096", "--json"}));
    EXPECT_NEAR(json.at("decode_tokens_per_s").get<double>(), 215.5, 0.5);
    EXPECT_EQ(json.at("bound"), "memory");
    EXPECT_GT(json.at("prefill_seconds").get<double>(), 0);
    EXPECT_DOUBLE_EQ(json.at("time_to_first_token_s").get<double>(),
                     json.at("prefill_seconds").get<double>() + json.at("decode_step_seconds").get<double>());
    // Batch 1, 2, 4, ... 128, then 130: the most 512 MiB caches that fit beside 15 GiB of weights in 80 GiB.
    const std::uint64_t room = json.at("capacity_bytes").get<std::uint64_t>() - 16'060'522'496;
    EXPECT_EQ(json.at("largest_batch"), room / (4096 * 131072));
    EXPECT_EQ(json.at("largest_batch"), 130);
    EXPECT_EQ(json.at("curve").size(), 9u);
    EXPECT_EQ(json.at("curve").back().at("batch"), 130);
    EXPECT_TRUE(json.at("fits").get<bool>());
    // Beyond it: no speed, and the text says what the batch needs.
    const auto tooMany =
        jsonOf(runCli({"roofline", "llama-3-8b", "--gpu", "h100-sxm", "--batch", "512", "--seq", "4096", "--json"}));
    EXPECT_FALSE(tooMany.at("fits").get<bool>());
    EXPECT_TRUE(tooMany.at("decode_tokens_per_s").is_null());
    const CliResult text = runCli({"roofline", "llama-3-8b", "--gpu", "h100-sxm", "--batch", "512", "--seq", "4096"});
    EXPECT_NE(text.out.find("does not fit"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("needs 4 x"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("stops at batch 130"), std::string::npos) << text.out;
    const auto b200 = jsonOf(runCli({"roofline", "llama-3-8b", "--gpu", "b200", "--json"}));
    EXPECT_GT(b200.at("decode_tokens_per_s").get<double>(), json.at("decode_tokens_per_s").get<double>());
    const CliResult missing = runCli({"roofline", "llama-3-8b"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("--gpu is required"), std::string::npos);
    EXPECT_EQ(runCli({"roofline", "llama-3-8b", "--gpu", "tpu-v9"}).exitCode, 2);
}

TEST(CliFit, AnswersWillItRunInTextAndJson) {
    // Llama 3 8B (16,060,522,496 bytes in bf16, 128 KiB of cache a token) on one H200 (141 GiB).
    const auto json = jsonOf(runCli({"fit", "llama-3-8b", "--gpu", "h200", "--seq", "8192", "--json"}));
    const std::uint64_t capacity = 141ull << 30;
    EXPECT_EQ(json.at("capacity_bytes"), capacity);
    EXPECT_TRUE(json.at("fits").get<bool>());
    EXPECT_EQ(json.at("devices_needed"), 1);
    EXPECT_EQ(json.at("largest_batch"), (capacity - 16'060'522'496) / (8192 * 131072));
    EXPECT_EQ(json.at("longest_sequence"), (capacity - 16'060'522'496) / 131072);
    EXPECT_EQ(json.at("model_context"), 8192);
    EXPECT_EQ(json.at("widest_fitting_format"), "fp32") << "32 GB of fp32 weights fit in 141 GiB";
    EXPECT_EQ(json.at("formats").size(), core::weightFormats().size());

    // DeepSeek-V3 on 2 x H100 (the issue's "90.1 tok/s"): no format fits, and it says how many it needs,
    // in the FP8 it ships in and in BF16.
    const auto deepseek = jsonOf(runCli({"fit", "deepseek-v3", "--gpu", "h100-sxm", "--gpus", "2", "--json"}));
    EXPECT_EQ(deepseek.at("weight_format"), "fp8-block128") << "quantization_config: fp8, 128 x 128 blocks";
    EXPECT_FALSE(deepseek.at("fits").get<bool>());
    EXPECT_TRUE(deepseek.at("widest_fitting_format").is_null());
    EXPECT_EQ(deepseek.at("largest_batch"), 0);
    EXPECT_GE(deepseek.at("devices_needed").get<std::uint64_t>(), 8u);
    const auto bf16 =
        jsonOf(runCli({"fit", "deepseek-v3", "--gpu", "h100-sxm", "--gpus", "2", "--weight-dtype", "bf16", "--json"}));
    EXPECT_EQ(bf16.at("weight_format"), "bf16");
    EXPECT_GE(bf16.at("devices_needed").get<std::uint64_t>(), 16u);

    // No cache at all (BERT): any batch and any length fit beside the weights, and it says so.
    const auto bert = jsonOf(runCli({"fit", "bert-base-uncased", "--gpu", "h100-sxm", "--seq", "512", "--json"}));
    EXPECT_TRUE(bert.at("largest_batch").is_null());
    EXPECT_EQ(bert.at("length_limit"), "no_cache");
    // A cache that grows and still fits at the longest length searched is not "any length".
    const auto many = jsonOf(runCli({"fit", "llama-3-8b", "--gpu", "h200", "--gpus", "1000000", "--json"}));
    EXPECT_EQ(many.at("length_limit"), "beyond_search");
    EXPECT_EQ(many.at("largest_batch"), (capacity * 1'000'000 - 16'060'522'496) / (4096 * 131072))
        << "the largest batch is not capped";

    const CliResult text = runCli({"fit", "llama-3-8b", "--gpu", "h200", "--seq", "8192"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    for (const char* shown : {"Largest batch at 8K tokens", "Longest sequence at batch 1", "Fewest H200",
                              "Widest weight format that fits", "q4_k_m", "activations and an engine's own overhead"}) {
        EXPECT_NE(text.out.find(shown), std::string::npos) << shown << "\n" << text.out;
    }
    EXPECT_EQ(runCli({"fit", "llama-3-8b"}).exitCode, 2) << "--gpu is required";
}

TEST(CliFit, UnderVllmPrintsItsCacheTokensAndConcurrency) {
    // vllm-project/vllm #10517: Llama-3.1-8B with 3.81 GiB of cache: 1,952 blocks, 31,232 tokens.
    const auto given = jsonOf(runCli({"fit", "llama-3.1-8b", "--gpu", "h100-sxm", "--seq", "131072", "--allocator",
                                      "vllm", "--kv-cache-memory", "3.8125GiB", "--json"}));
    const auto& vllm = given.at("vllm");
    EXPECT_TRUE(vllm.at("cache_bytes_given").get<bool>());
    EXPECT_EQ(vllm.at("num_gpu_blocks"), 1952);
    EXPECT_EQ(vllm.at("kv_cache_tokens"), 31'232);
    EXPECT_DOUBLE_EQ(vllm.at("max_concurrency").get<double>(), 1952.0 / 8192);
    EXPECT_FALSE(vllm.at("starts").get<bool>()) << "a 131,072-token request needs 8,192 blocks";
    // Without the size, vLLM's share of the GPU less the weights and an estimate of its profiled peak.
    const auto estimated = jsonOf(runCli({"fit", "llama-3.1-8b", "--gpu", "h100-sxm", "--seq", "8192", "--allocator",
                                          "vllm", "--gpu-memory-utilization", "0.8", "--json"}))
                               .at("vllm");
    EXPECT_FALSE(estimated.at("cache_bytes_given").get<bool>());
    EXPECT_EQ(estimated.at("reserved_bytes"), static_cast<std::uint64_t>(0.8 * (80ull << 30)));
    EXPECT_EQ(estimated.at("cache_bytes").get<std::uint64_t>(),
              estimated.at("reserved_bytes").get<std::uint64_t>() -
                  estimated.at("weight_bytes_per_gpu").get<std::uint64_t>() -
                  estimated.at("profiled_bytes_estimate").get<std::uint64_t>());
    EXPECT_EQ(estimated.at("num_gpu_blocks"), estimated.at("cache_bytes").get<std::uint64_t>() / (2u << 20));
    EXPECT_TRUE(estimated.at("starts").get<bool>());
    const CliResult text = runCli({"fit", "llama-3.1-8b", "--gpu", "h100-sxm", "--allocator", "vllm"});
    EXPECT_NE(text.out.find("vLLM: GPU KV cache size"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("what vLLM 0.11 reserves"), std::string::npos) << text.out;
    EXPECT_EQ(runCli({"fit", "llama-3.1-8b", "--gpu", "h100-sxm", "--gpu-memory-utilization", "1.5"}).exitCode, 2);
}

TEST(CliCompare, ModelsShippedInTheirOwnFormatsCompareInOneScenario) {
    const CliResult r = runCli({"compare", "gpt-oss-20b", "llama-3.1-8b", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("gpt-oss-20b"), std::string::npos);
}

TEST(CliKvEngines, LlamaCppPrintsItsBuffersAndAnEngineWithoutARuleRefuses) {
    // ikawrakow/ik_llama.cpp PR #259: DeepSeek-R1's q8_0 latent at n_ctx 32,768 is 1,166.62 MiB.
    const CliResult r1 =
        runCli({"kv", "deepseek-v3", "--seq", "32768", "--kv-dtype", "int8", "--allocator", "llama.cpp"});
    ASSERT_EQ(r1.exitCode, 0) << r1.err;
    EXPECT_NE(r1.out.find("K (q8_0): 1166.62 MiB"), std::string::npos) << r1.out;
    const auto json = jsonOf(
        runCli({"kv", "deepseek-v3", "--seq", "32768", "--kv-dtype", "int8", "--allocator", "llama.cpp", "--json"}));
    EXPECT_EQ(json.at("engine").at("k_bytes"), 1'223'294'976u);
    EXPECT_EQ(json.at("engine").at("cells"), 32'768u);
    const CliResult fp8 =
        runCli({"kv", "llama-3.1-8b", "--seq", "4096", "--kv-dtype", "fp8", "--allocator", "llama.cpp"});
    EXPECT_EQ(fp8.exitCode, 1);
    EXPECT_TRUE(fp8.out.empty()) << fp8.out;
    EXPECT_NE(fp8.err.find("no fp8 KV cache"), std::string::npos) << fp8.err;
}

TEST(CliCostOverflow, FiguresBeyond2To64AreRefusedNotPrinted) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"compute", "llama-3-8b", "--seq", "18446744073709551615"},
          std::vector<std::string>{"memory", "llama-3-8b", "--training", "--micro-batch", "18446744073709551615"},
          std::vector<std::string>{"roofline", "llama-3-8b", "--gpu", "h100-sxm", "--batch", "18446744073709551615"}}) {
        const CliResult result = runCli(args);
        EXPECT_EQ(result.exitCode, 1) << args[0];
        EXPECT_TRUE(result.out.empty()) << result.out;
        EXPECT_NE(result.err.find("exceed 2^64 - 1"), std::string::npos) << result.err;
    }
}

TEST(CliGpus, AUserCatalogueFileAddsDevices) {
    const std::string file = writeTempFile("lab-gpus.json", R"({"gpus": [{"id": "lab-card", "name": "Lab card",
        "memory_gib": 96, "bandwidth_gb_s": 2000, "bf16_tflops": 500}]})");
    const auto json = jsonOf(runCli({"roofline", "llama-3-8b", "--gpu", "lab-card", "--gpu-file", file, "--json"}));
    EXPECT_EQ(json.at("gpu"), "lab-card");
    EXPECT_DOUBLE_EQ(json.at("bandwidth_bytes_per_s").get<double>(), 2e12);
    const std::string bad = writeTempFile("bad-gpus.json", R"({"gpus": [{"id": "lab", "memory_gib": 96}]})");
    const CliResult refused = runCli({"roofline", "llama-3-8b", "--gpu", "lab", "--gpu-file", bad});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_EQ(refused.err, "archplay-cli: --gpu-file " + bad + ": gpus[0].bandwidth_gb_s: missing\n");
}

TEST(CliGpus, ListsTheCatalogueWithSources) {
    const CliResult json = runCli({"gpus", "--json"});
    ASSERT_EQ(json.exitCode, 0);
    const nlohmann::json list = nlohmann::json::parse(json.out).at("gpus");
    EXPECT_EQ(list.size(), core::builtinGpus().size());
    for (const auto& gpu : list) {
        EXPECT_FALSE(gpu.at("source").get<std::string>().empty());
    }
    const CliResult text = runCli({"gpus"});
    EXPECT_NE(text.out.find("mi325x"), std::string::npos);
    EXPECT_EQ(runCli({"gpus", "h100"}).exitCode, 2);
}

} // namespace
} // namespace archplay::test

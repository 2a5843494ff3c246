// SPDX-License-Identifier: GPL-3.0-or-later
// archplay-cli end to end through its run() entry: outputs, exit codes and messages.
#include "TestPaths.h"
#include "core/io/Presets.h"
#include "tests/support/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace archplay::test {
namespace {

TEST(CliParams, JsonHasTotalActiveAndABreakdownTree) {
    const CliResult r = runCli({"params", "mixtral-8x7b-v0.1", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["total"], 46'702'792'704u);
    EXPECT_EQ(json["active"], 12'879'925'248u);
    EXPECT_EQ(json["breakdown"]["name"], "Model");
    EXPECT_EQ(json["breakdown"]["params"], json["total"]);
    EXPECT_TRUE(json["breakdown"]["children"].is_array());
}

TEST(CliParams, ReadsAConfigFileFromDisk) {
    const auto path = std::filesystem::path(kReferenceDir) / "configs" / "llama-3-8b.json";
    const CliResult r = runCli({"params", path.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("8,030,261,248"), std::string::npos) << r.out;
}

TEST(CliKv, JsonTotalsForTheScenario) {
    const CliResult r = runCli({"kv", "llama-3-8b", "--seq", "8192", "--batch", "4", "--kv-dtype", "fp8", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["bytes_per_token"], 65'536u);
    EXPECT_EQ(json["total_bytes"], 65'536ull * 8192 * 4);
}

TEST(CliKv, SaysWhetherWeightsAndCacheFitTheGpus) {
    const CliResult one = runCli({"kv", "llama-3-70b", "--seq", "4096", "--json"});
    ASSERT_EQ(one.exitCode, 0) << one.err;
    const auto fit = nlohmann::json::parse(one.out).at("gpu_fit");
    EXPECT_EQ(fit.at("gpu_memory_gib"), 80);
    EXPECT_EQ(fit.at("weight_bytes"), 141107412992ull); // 70,553,706,496 parameters in BF16
    EXPECT_EQ(fit.at("fits"), false);
    EXPECT_EQ(fit.at("devices_needed"), 2);

    const CliResult two = runCli({"kv", "llama-3-70b", "--seq", "4096", "--gpu", "80", "--gpus", "2"});
    ASSERT_EQ(two.exitCode, 0) << two.err;
    EXPECT_NE(two.out.find("+ cache on 2 x A100 80GB (80 GiB): fits, 82% used"), std::string::npos) << two.out;

    const CliResult odd = runCli({"kv", "llama-3-70b", "--seq", "4096", "--gpu", "100"});
    EXPECT_EQ(odd.exitCode, 2);
    EXPECT_NE(odd.err.find("--gpu takes a device id (rtx-3090, rtx-4090, l40s,"), std::string::npos) << odd.err;
    EXPECT_EQ(runCli({"kv", "llama-3-70b", "--seq", "4096", "--gpus", "0"}).exitCode, 2);
}

TEST(CliKv, HumanTableShowsLatentAndExpandedSizes) {
    const CliResult r = runCli({"kv", "deepseek-v3", "--seq", "1000"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("70,272"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("4,997,120"), std::string::npos) << r.out;
}

TEST(CliKv, TheAllocatorSaysWhoseCacheAFigureIs) {
    // Falcon-40B's new decoder architecture: 8 KV heads in the architecture, K and V repeated to all
    // 128 query heads in transformers (FORMULAS.md §4.1): 60 x 2 x 128 x 64 x 2 bytes per token.
    const CliResult own = runCli({"kv", "falcon-40b", "--seq", "1000", "--json"});
    ASSERT_EQ(own.exitCode, 0) << own.err;
    const auto architecture = nlohmann::json::parse(own.out);
    EXPECT_EQ(architecture["allocator"], "architecture");
    EXPECT_EQ(architecture["bytes_per_token"], 122'880u);
    const CliResult held = runCli({"kv", "falcon-40b", "--seq", "1000", "--allocator", "transformers", "--json"});
    ASSERT_EQ(held.exitCode, 0) << held.err;
    const auto transformers = nlohmann::json::parse(held.out);
    EXPECT_EQ(transformers["allocator"], "transformers");
    EXPECT_EQ(transformers["bytes_per_token"], 1'966'080u);
    EXPECT_EQ(transformers["allocated_bytes"], 1'966'080ull * 1000);
    // A sliding layer holds W - 1 tokens in transformers: Mistral-7B-v0.1 (W 4096, 32 layers, 131,072 B/token).
    const CliResult mistral =
        runCli({"kv", "mistral-7b-v0.1", "--seq", "8192", "--allocator", "transformers", "--json"});
    ASSERT_EQ(mistral.exitCode, 0) << mistral.err;
    EXPECT_EQ(nlohmann::json::parse(mistral.out)["allocated_bytes"], 131'072ull * 4095);
    const CliResult text = runCli({"kv", "falcon-40b", "--seq", "1000", "--allocator", "transformers"});
    EXPECT_NE(text.out.find("what transformers 5.17 allocates"), std::string::npos) << text.out;
    const CliResult bad = runCli({"kv", "falcon-40b", "--seq", "1000", "--allocator", "sglang"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--allocator takes architecture, transformers, vllm or llama.cpp"), std::string::npos)
        << bad.err;
}

TEST(CliTensors, ListsEveryTensorFoldedInEitherLayout) {
    const CliResult r = runCli({"tensors", "mixtral-8x7b-v0.1", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["layout"], "checkpoint");
    // 32 layers x 8 experts, each [14336, 4096].
    EXPECT_EQ(json["tensors"]["model.layers.#.mlp.experts.#.gate_proj.weight"],
              nlohmann::json::array({256, 256ull * 14336 * 4096, {14336, 4096}}));
    std::uint64_t sum = 0;
    for (const auto& [key, tensor] : json["tensors"].items()) {
        sum += tensor[1].get<std::uint64_t>();
    }
    EXPECT_EQ(sum, json["total"].get<std::uint64_t>());
    const CliResult fused = runCli({"tensors", "mixtral-8x7b-v0.1", "--layout", "transformers", "--json"});
    ASSERT_EQ(fused.exitCode, 0) << fused.err;
    EXPECT_EQ(nlohmann::json::parse(fused.out)["tensors"]["model.layers.#.mlp.experts.gate_up_proj"],
              nlohmann::json::array({32, 32ull * 8 * 28672 * 4096, {8, 28672, 4096}}));
    const CliResult table = runCli({"tensors", "llama-3-8b"});
    EXPECT_NE(table.out.find("model.layers.#.self_attn.q_proj.weight"), std::string::npos) << table.out;
    EXPECT_EQ(runCli({"tensors", "llama-3-8b", "--layout", "gguf"}).exitCode, 2);
}

TEST(CliValidate, InvalidConfigExitsOneNamingFileAndField) {
    const std::string path = writeTempFile("bad-heads.json", R"({"model_type": "llama", "num_key_value_heads": 5})");
    const CliResult r = runCli({"validate", path});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("num_key_value_heads"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliValidate, ValidPresetExitsZero) {
    const CliResult r = runCli({"validate", "gemma-3-1b", "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)["valid"].get<bool>());
}

TEST(CliErrors, UnreadableOrMalformedFilesExitOne) {
    for (const std::string& text : {std::string("not json at all"), std::string("[]"),
                                    std::string(R"({"model_type": "llama", "hidden_size": "big"})")}) {
        const std::string path = writeTempFile("malformed.json", text);
        const CliResult r = runCli({"params", path});
        EXPECT_EQ(r.exitCode, 1) << text;
        EXPECT_NE(r.err.find("archplay-cli: "), std::string::npos);
    }
    EXPECT_EQ(runCli({"params", "/nonexistent/config.json"}).exitCode, 1);
    EXPECT_EQ(runCli({"params", std::filesystem::temp_directory_path().string()}).exitCode, 1);
}

TEST(CliErrors, BadUsageExitsTwo) {
    EXPECT_EQ(runCli({}).exitCode, 2);
    EXPECT_EQ(runCli({"frobnicate"}).exitCode, 2);
    EXPECT_EQ(runCli({"params"}).exitCode, 2);
    EXPECT_EQ(runCli({"kv", "llama-3-8b"}).exitCode, 2); // --seq missing
    EXPECT_EQ(runCli({"kv", "llama-3-8b", "--seq", "-5"}).exitCode, 2);
    EXPECT_EQ(runCli({"kv", "llama-3-8b", "--seq", "10", "--kv-dtype", "fp7"}).exitCode, 2);
    EXPECT_EQ(runCli({"params", "llama-3-8b", "--frob"}).exitCode, 2);
}

TEST(CliPresets, ListsEveryPreset) {
    const CliResult r = runCli({"presets", "--json"});
    ASSERT_EQ(r.exitCode, 0);
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_GE(json["presets"].size(), 35u);
    EXPECT_EQ(json["presets"][0]["family"], "Llama");
}

TEST(CliDesign, FindsDesignsNearTheTargetAsJson) {
    const CliResult r = runCli({"design", "--params", "7B", "--top", "5", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["targets"]["params"], 7'000'000'000u);
    EXPECT_EQ(json["targets"]["tolerance"], 0.05);
    EXPECT_EQ(json["targets"]["rank"], "distance");
    EXPECT_LE(json["evaluated"].get<std::uint64_t>(), json["space_size"].get<std::uint64_t>());
    ASSERT_EQ(json["candidates"].size(), 5u);
    std::uint64_t previous = 0;
    for (const auto& candidate : json["candidates"]) {
        const std::uint64_t distance = candidate["distance"].get<std::uint64_t>();
        EXPECT_LE(distance, 350'000'000u);
        EXPECT_GE(distance, previous) << "nearest the target first";
        previous = distance;
        EXPECT_EQ(candidate["config"]["model_type"], "llama");
        EXPECT_EQ(candidate["config"]["num_hidden_layers"], candidate["shape"]["num_hidden_layers"]);
    }
}

TEST(CliDesign, RediscoversLlama3_8BExactly) {
    const CliResult r = runCli({"design", "--params", "8030261248", "--tolerance", "0%", "--vocab", "128256"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("1 meet the targets"), std::string::npos) << r.out;
    // parameters, offset, layers, hidden, heads, kv, head_dim, ffn, vocab, tied, KV per token
    EXPECT_NE(r.out.find("8,030,261,248   +0.000%     32   4096    32   8      128  14336  128256    no    128 KiB"),
              std::string::npos)
        << r.out;
}

TEST(CliDesign, ReadsCountsPercentagesAndBudgets) {
    const CliResult r =
        runCli({"design", "--params", "1.5B", "--tolerance", "1%", "--max-kv-per-token", "16384", "--kv-dtype", "fp8",
                "--layers", "12:40", "--hidden", "1024:4096", "--aspect", "48:160", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["targets"]["params"], 1'500'000'000u);
    EXPECT_EQ(json["targets"]["tolerance"], 0.01);
    EXPECT_EQ(json["targets"]["kv_dtype"], "fp8");
    ASSERT_FALSE(json["candidates"].empty());
    for (const auto& candidate : json["candidates"]) {
        EXPECT_LE(candidate["kv_bytes_per_token"].get<std::uint64_t>(), 16384u);
        EXPECT_GE(candidate["shape"]["num_hidden_layers"].get<int>(), 12);
        EXPECT_LE(candidate["shape"]["num_hidden_layers"].get<int>(), 40);
    }
    EXPECT_EQ(runCli({"design", "--params", "350M", "--json"}).exitCode, 0);
}

TEST(CliDesign, BadUsageExitsTwoNamingTheFlag) {
    auto fails = [](std::vector<std::string> args, const std::string& message) {
        const CliResult r = runCli(std::move(args));
        EXPECT_EQ(r.exitCode, 2) << message;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    };
    fails({"design"}, "--params is required");
    fails({"design", "--params", "7X"}, "--params takes a positive count");
    fails({"design", "--params", "0"}, "--params takes a positive count");
    fails({"design", "--params", "7B", "--tolerance", "five"}, "--tolerance takes a percentage");
    fails({"design", "--params", "7B", "--tolerance", "150%"}, "--tolerance: the tolerance is a fraction from 0 to 1");
    fails({"design", "--params", "7B", "--layers", "40:20"}, "--layers: the range minimum 40 is above its maximum 20");
    fails({"design", "--params", "7B", "--layers", "a:b"}, "--layers takes MIN:MAX");
    fails({"design", "--params", "7B", "--aspect", "200:100"}, "--aspect:");
    fails({"design", "--params", "7B", "--top", "0"}, "--top takes a positive whole number");
    fails({"design", "--params", "7B", "--kv-dtype", "fp7"}, "--kv-dtype takes");
    fails({"design", "llama-3-8b", "--params", "7B"}, "design takes no CONFIG");
}

TEST(CliZoo, TablesEveryPresetInEachFormat) {
    const std::size_t presets = core::builtinPresets().size();
    const CliResult csv = runCli({"zoo", "--csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), static_cast<long>(presets + 1));
    EXPECT_NE(csv.out.find("llama-3-8b,preset,,Llama 3 8B,Llama,2024-04,llama,decoder-only,dense,exact,32,"),
              std::string::npos);
    EXPECT_NE(csv.out.find(",8030261248,8030261248,8030261248,yes,"), std::string::npos);

    const CliResult md = runCli({"zoo", "--md"});
    ASSERT_EQ(md.exitCode, 0) << md.err;
    EXPECT_NE(md.out.find("| `llama-3-8b` | preset |  | Llama 3 8B | Llama | 2024-04 | llama |"), std::string::npos);

    const CliResult text = runCli({"zoo"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("8,030,261,248"), std::string::npos);

    const CliResult json = runCli({"zoo", "--json", "--seq", "8192", "--kv-dtype", "fp8", "--gpu", "24"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto zoo = nlohmann::json::parse(json.out);
    ASSERT_EQ(zoo["models"].size(), presets);
    EXPECT_EQ(zoo["scenario"]["gpu"]["memory_gib"], 24);
    for (const auto& model : zoo["models"]) {
        if (model["id"] == "llama-3-8b") {
            EXPECT_EQ(model["kv_total_bytes"], 65'536ull * 8192);
            EXPECT_EQ(model["gpu_fit"], "fits, 64% used");
        }
    }
}

TEST(CliZoo, BadUsageExitsTwo) {
    EXPECT_EQ(runCli({"zoo", "--csv", "--md"}).exitCode, 2);
    EXPECT_EQ(runCli({"zoo", "--csv", "--json"}).exitCode, 2);
    EXPECT_EQ(runCli({"zoo", "llama-3-8b"}).exitCode, 2);
    EXPECT_EQ(runCli({"zoo", "--gpu", "100"}).exitCode, 2);
    EXPECT_EQ(runCli({"zoo", "--gpus", "0"}).exitCode, 2);
}

} // namespace
} // namespace archplay::test

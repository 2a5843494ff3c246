// SPDX-License-Identifier: GPL-3.0-or-later
// The user's device catalogue as core checks it: every device a form or a file describes is read
// through the same rules, and each refusal names the key at fault.
#include "core/io/GpuJson.h"
#include "core/report/ScenarioLabels.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace archplay::core {
namespace {

Gpu myGpu(std::string id) {
    GpuFigures figures{.id = std::move(id),
                       .name = "Lab card",
                       .memoryGiB = 48,
                       .bandwidthGBs = 960,
                       .bf16Tflops = 181.05,
                       .fp8Tflops = 362.1,
                       .source = "our measurements"};
    Gpu gpu;
    Diagnostics diagnostics;
    EXPECT_TRUE(gpuFromFigures(figures, gpu, diagnostics));
    return gpu;
}

bool names(const Diagnostics& diagnostics, const std::string& field) {
    for (const Diagnostic& diagnostic : diagnostics) {
        if (diagnostic.field == field && diagnostic.severity == Severity::Error) {
            return true;
        }
    }
    return false;
}

TEST(GpuCatalogue, FiguresInVendorUnitsReadBackAsTheDevice) {
    const Gpu gpu = myGpu("lab-card");
    EXPECT_EQ(gpu.memoryBytes(), std::uint64_t{48} << 30);
    EXPECT_DOUBLE_EQ(gpu.bandwidth, 960e9);
    EXPECT_DOUBLE_EQ(gpu.bf16Flops, 181.05e12);
    EXPECT_FALSE(gpu.builtin);
    // Every built-in device survives the form unchanged, so picking one after editing nothing is a no-op.
    for (const Gpu& builtin : builtinGpus()) {
        Gpu read;
        Diagnostics diagnostics;
        ASSERT_TRUE(gpuFromFigures(gpuFigures(builtin), read, diagnostics)) << builtin.id;
        EXPECT_EQ(read, builtin) << builtin.id;
    }
}

TEST(GpuCatalogue, AFormWithAFaultNamesTheKey) {
    GpuFigures figures = gpuFigures(myGpu("lab-card"));
    figures.memoryGiB = 0;
    figures.bandwidthGBs = -1;
    Gpu gpu;
    Diagnostics diagnostics;
    EXPECT_FALSE(gpuFromFigures(figures, gpu, diagnostics));
    EXPECT_TRUE(names(diagnostics, "memory_gib"));
    EXPECT_TRUE(names(diagnostics, "bandwidth_gb_s"));
    // The bound that refused it is stated as it is, not rounded to a 0 that it refuses too.
    for (const Diagnostic& diagnostic : diagnostics) {
        if (diagnostic.field == "bandwidth_gb_s") {
            EXPECT_EQ(diagnostic.message, "expected a number from 0.001 to 1000000000");
        }
    }
    figures = gpuFigures(myGpu("lab-card"));
    figures.id.clear();
    diagnostics.clear();
    EXPECT_FALSE(gpuFromFigures(figures, gpu, diagnostics));
    EXPECT_TRUE(names(diagnostics, "id"));
    figures = gpuFigures(myGpu("lab-card"));
    figures.memoryGiB = 1.5;
    diagnostics.clear();
    EXPECT_FALSE(gpuFromFigures(figures, gpu, diagnostics));
    EXPECT_TRUE(names(diagnostics, "memory_gib"));
}

TEST(GpuCatalogue, UserListsKeepIdsUniqueAndApartFromTheBuiltInOnes) {
    const GpuCatalogueRead fine = checkUserGpus({myGpu("a"), myGpu("b")});
    ASSERT_TRUE(fine.ok());
    EXPECT_EQ(fine.gpus.size(), 2u);
    EXPECT_EQ(fine.gpus[1], myGpu("b"));

    const GpuCatalogueRead repeated = checkUserGpus({myGpu("a"), myGpu("a")});
    EXPECT_FALSE(repeated.ok());
    EXPECT_TRUE(names(repeated.diagnostics, "gpus[1].id"));
    const GpuCatalogueRead builtin = checkUserGpus({myGpu("h100-sxm")});
    EXPECT_FALSE(builtin.ok());
    EXPECT_TRUE(names(builtin.diagnostics, "gpus[0].id"));
}

TEST(GpuCatalogue, HostileFilesAreRefusedNamingTheField) {
    EXPECT_TRUE(names(gpuCatalogueFromJson(R"({"gpus": [{"id": "x", "memory_gib": "lots", "bandwidth_gb_s": 1,
        "bf16_tflops": 1}]})")
                          .diagnostics,
                      "gpus[0].memory_gib"));
    EXPECT_TRUE(names(gpuCatalogueFromJson(R"({"gpus": [{"id": "x", "memory_gib": 1e300, "bandwidth_gb_s": 1,
        "bf16_tflops": 1}]})")
                          .diagnostics,
                      "gpus[0].memory_gib"));
    EXPECT_TRUE(names(gpuCatalogueFromJson(R"({"gpus": {"id": "x"}})").diagnostics, "gpus"));
    EXPECT_TRUE(names(gpuCatalogueFromJson(R"({"devices": []})").diagnostics, "gpus"));
    EXPECT_FALSE(gpuCatalogueFromJson("{\"gpus\": [").ok());
    EXPECT_FALSE(gpuCatalogueFromJson(std::string(100000, '[')).ok());

    const std::string device = R"({"id": "d", "memory_gib": 1, "bandwidth_gb_s": 1, "bf16_tflops": 1},)";
    std::string many = "[";
    for (std::size_t i = 0; i <= kMaxUserGpus; ++i) {
        many += device;
    }
    many.back() = ']';
    const GpuCatalogueRead tooMany = gpuCatalogueFromJson(many);
    EXPECT_FALSE(tooMany.ok());
    EXPECT_TRUE(names(tooMany.diagnostics, "gpus"));
    EXPECT_TRUE(tooMany.gpus.empty());

    const std::string longId = std::string(kMaxGpuIdBytes + 1, 'x');
    const GpuCatalogueRead longRead = gpuCatalogueFromJson(
        R"([{"id": ")" + longId + R"(", "memory_gib": 1, "bandwidth_gb_s": 1, "bf16_tflops": 1}])");
    EXPECT_TRUE(names(longRead.diagnostics, "gpus[0].id"));
}

TEST(GpuCatalogue, NamesWithControlCharactersIdsOfDigitsAndNewerVersionsAreRefused) {
    const auto read = [](const std::string& id, const std::string& name) {
        return gpuCatalogueFromJson(nlohmann::json{
            {"gpus",
             {{{"id", id}, {"name", name}, {"memory_gib", 80}, {"bandwidth_gb_s", 3350}, {"bf16_tflops", 989}}}}}
                                        .dump());
    };
    // A name with a line break or an escape sequence would reach LaTeX and terminals as it is.
    EXPECT_TRUE(names(read("lab-gpu", "Lab\ninput{/etc/passwd}").diagnostics, "gpus[0].name"));
    EXPECT_TRUE(names(read("lab\x1b[2J", "Lab").diagnostics, "gpus[0].id"));
    // `--gpu 80` means 80 GiB: an id of digits alone would be shadowed or shadow it.
    EXPECT_TRUE(names(read("80", "Eighty").diagnostics, "gpus[0].id"));
    EXPECT_TRUE(read("a100-80", "A100 80GB").ok());
    EXPECT_TRUE(names(gpuCatalogueFromJson(R"({"archplay_gpus": 2, "gpus": []})").diagnostics, "archplay_gpus"));
    EXPECT_TRUE(names(gpuCatalogueFromJson(R"({"archplay_gpus": "one", "gpus": []})").diagnostics, "archplay_gpus"));
    EXPECT_TRUE(gpuCatalogueFromJson(R"({"archplay_gpus": 1, "gpus": []})").ok());
}

TEST(ScenarioLabels, NameWhatEachChoiceKeeps) {
    EXPECT_EQ(optimizerLabel(Optimizer::Adam16), "Adam, bf16 gradients: 16 B/param");
    EXPECT_EQ(optimizerLabel(Optimizer::Adam18), "Adam, fp32 gradients: 18 B/param");
    EXPECT_EQ(optimizerBytesPerParam(Optimizer::Adam18), 18);
    EXPECT_EQ(zeroStageLabel(0), "0: nothing sharded");
    EXPECT_EQ(zeroStageLabel(3), "3: optimizer state, gradients, weights");
    EXPECT_EQ(zeroStageLabel(9), "stage 9");
    EXPECT_EQ(recomputeLabel(Recompute::Selective), "Selective: attention core");
    EXPECT_EQ(gpuChoiceLabel(defaultGpu()), "H100 SXM · 80 GiB");
}

} // namespace
} // namespace archplay::core

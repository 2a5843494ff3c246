// SPDX-License-Identifier: GPL-3.0-or-later
// Expected decode beside the bound: the bound scaled by the bandwidth measured on the device.
#include "core/io/GpuJson.h"
#include "core/report/Costs.h"
#include "core/report/Fit.h"
#include "core/util/Format.h"
#include "tests/support/TestSupport.h"

namespace archplay::test {
namespace {

TEST(ExpectedSpeed, TheMeasuredBandwidthsAreThoseCited) {
    // Issue 34's citation: STREAM-type bandwidth on Azure ND v5, H100 2.90-3.18 TB/s of 3.35, H200
    // 4.00-4.48 of 4.8.
    const core::Gpu* h100 = core::findGpu(core::builtinGpus(), "h100-sxm");
    const core::Gpu* h200 = core::findGpu(core::builtinGpus(), "h200");
    ASSERT_TRUE(h100 && h100->measuredBandwidth && h200 && h200->measuredBandwidth);
    EXPECT_DOUBLE_EQ(h100->measuredBandwidth->low, 2.90e12);
    EXPECT_DOUBLE_EQ(h100->measuredBandwidth->high, 3.18e12);
    EXPECT_DOUBLE_EQ(h200->measuredBandwidth->low, 4.00e12);
    EXPECT_DOUBLE_EQ(h200->measuredBandwidth->high, 4.48e12);
    EXPECT_FALSE(core::findGpu(core::builtinGpus(), "a100-80gb")->measuredBandwidth) << "none published here";
}

TEST(ExpectedSpeed, AMemoryBoundDecodeScalesByAchievedOverPeakAndSaysWhereFrom) {
    core::Scenario scenario = scenarioAt(4096, 8);
    const core::Analysis h100 = analyzePreset("llama-3.1-8b", scenario);
    ASSERT_TRUE(h100.speed.expectedDecode);
    const double bound = h100.speed.scenario.tokensPerSecond;
    EXPECT_DOUBLE_EQ(h100.speed.expectedDecode->low, bound * 2.90e12 / 3.35e12);
    EXPECT_DOUBLE_EQ(h100.speed.expectedDecode->high, bound * 3.18e12 / 3.35e12);
    const auto rows = core::speedRows(h100);
    const core::SummaryRow* expected = core::findRow(rows, "decode_expected");
    ASSERT_NE(expected, nullptr);
    EXPECT_EQ(expected->value,
              core::tokenRateRangeText(h100.speed.expectedDecode->low, h100.speed.expectedDecode->high));
    EXPECT_TRUE(contains(expected->detail, "Azure ND H100 v5")) << expected->detail;
    // No measurement, no expected figure: the row says the bound is all there is.
    scenario.gpu = *core::findGpu(core::builtinGpus(), "a100-80gb");
    const core::Analysis a100 = analyzePreset("llama-3.1-8b", scenario);
    EXPECT_FALSE(a100.speed.expectedDecode);
    EXPECT_EQ(core::findRow(core::speedRows(a100), "decode_expected")->value, "bound only");
    // Nor for a batch that does not fit.
    scenario = scenarioAt(4096, 100'000);
    EXPECT_FALSE(analyzePreset("llama-3.1-8b", scenario).speed.expectedDecode);
}

TEST(ExpectedSpeed, ARangeNamesItsUnitOnceWhenBothEndsShareIt) {
    EXPECT_EQ(core::tokenRateRangeText(436.2, 478.3), "436-478 tok/s");
    EXPECT_EQ(core::tokenRateRangeText(1020, 1120), "1.02K-1.12K tok/s");
    EXPECT_EQ(core::tokenRateRangeText(980, 1070), "980 tok/s-1.07K tok/s");
}

TEST(ExpectedSpeed, AMeasuredBandwidthTravelsWithTheDeviceAndIsChecked) {
    core::Gpu gpu = *core::findGpu(core::builtinGpus(), "h100-sxm");
    gpu.id = "my-h100";
    gpu.builtin = false;
    core::Gpu read;
    core::Diagnostics diagnostics;
    ASSERT_TRUE(core::readGpu(core::gpuJson(gpu), read, diagnostics, "gpu"));
    EXPECT_EQ(read.measuredBandwidth, gpu.measuredBandwidth);
    ASSERT_TRUE(core::gpuFromFigures(core::gpuFigures(gpu), read, diagnostics));
    EXPECT_EQ(read.measuredBandwidth, gpu.measuredBandwidth);
    core::GpuFigures faster = core::gpuFigures(gpu);
    faster.measuredHighTBs = 3.5; // above the 3.35 TB/s peak
    EXPECT_FALSE(core::gpuFromFigures(faster, read, diagnostics));
    EXPECT_TRUE(std::any_of(diagnostics.begin(), diagnostics.end(),
                            [](const core::Diagnostic& d) { return d.field == "measured_bandwidth_tb_s"; }));
}

} // namespace
} // namespace archplay::test

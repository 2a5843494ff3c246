// SPDX-License-Identifier: GPL-3.0-or-later
#include "Flags.h"

#include "memory/GpuFit.h"

#include <fmt/format.h>

#include <charconv>

namespace archplay::cli {
namespace {

core::DType dtype(const std::string& flag, const std::string& text) {
    const auto parsed = core::parseDType(text);
    if (!parsed) {
        throw UsageError{fmt::format("{} takes fp32, fp16, bf16, fp8, int8 or int4, not '{}'", flag, text)};
    }
    return *parsed;
}

std::uint64_t gpuMemory(const std::string& text) {
    const std::uint64_t gib = wholeNumber("--gpu", text, false);
    if (core::findGpuMemorySize(gib) == nullptr) {
        throw UsageError{fmt::format("--gpu takes a device memory size in GB, one of {}; not '{}'",
                                     core::gpuMemorySizeList(), text)};
    }
    return gib;
}

} // namespace

std::uint64_t wholeNumber(const std::string& flag, const std::string& text, bool allowZero) {
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size() || (!allowZero && number == 0)) {
        throw UsageError{
            fmt::format("{} takes a {} whole number, not '{}'", flag, allowZero ? "non-negative" : "positive", text)};
    }
    return number;
}

const std::vector<std::string>& scenarioFlags() {
    static const std::vector<std::string> flags = {"--seq",          "--batch", "--encoder-seq", "--kv-dtype",
                                                   "--weight-dtype", "--gpu",   "--gpus"};
    return flags;
}

core::Scenario scenarioFromFlags(const std::map<std::string, std::string>& values) {
    auto value = [&](const char* flag) -> const std::string* {
        auto it = values.find(flag);
        return it == values.end() ? nullptr : &it->second;
    };
    core::Scenario scenario;
    if (const std::string* text = value("--seq")) {
        scenario.sequenceLength = wholeNumber("--seq", *text, false);
    }
    scenario.encoderSequenceLength = scenario.sequenceLength;
    if (const std::string* text = value("--encoder-seq")) {
        scenario.encoderSequenceLength = wholeNumber("--encoder-seq", *text, false);
    }
    if (const std::string* text = value("--batch")) {
        scenario.batch = wholeNumber("--batch", *text, false);
    }
    if (const std::string* text = value("--kv-dtype")) {
        scenario.kvDType = dtype("--kv-dtype", *text);
    }
    if (const std::string* text = value("--weight-dtype")) {
        scenario.weightDType = dtype("--weight-dtype", *text);
    }
    if (const std::string* text = value("--gpu")) {
        scenario.gpuMemoryGiB = gpuMemory(*text);
    }
    if (const std::string* text = value("--gpus")) {
        scenario.gpuCount = wholeNumber("--gpus", *text, false);
    }
    return scenario;
}

} // namespace archplay::cli

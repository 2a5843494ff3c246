// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/Flags.h"

#include "app/cli/CliCommands.h"
#include "core/cost/Gpus.h"
#include "core/cost/WeightFormats.h"
#include "core/io/Files.h"
#include "core/io/GpuJson.h"
#include "core/memory/KvCache.h"
#include "core/util/Format.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <ostream>
#include <string_view>

namespace archplay::cli {
namespace {

/// The devices of a catalogue file (`--gpu-file`, as the window's Tools > Devices exports them).
std::vector<core::Gpu> gpuFile(const std::string& path) {
    const core::FileRead read = core::readRegularFile(path);
    if (!read.bytes) {
        throw UsageError{fmt::format("--gpu-file {}: {}", path, read.error), false};
    }
    core::GpuCatalogueRead catalogue = core::gpuCatalogueFromJson(*read.bytes);
    if (!catalogue.ok()) {
        const core::Diagnostic& first = catalogue.diagnostics.front();
        throw UsageError{fmt::format("--gpu-file {}: {}: {}", path, first.field, first.message), false};
    }
    return std::move(catalogue.gpus);
}

/// A device by id: the built-in ones ("h100-sxm"), then `userGpus`; or by its memory in GiB ("80": the
/// first built-in device of that size, as older command lines wrote it).
core::Gpu gpuNamed(const std::string& text, const std::vector<core::Gpu>& userGpus) {
    if (const core::Gpu* gpu = core::findGpu(core::builtinGpus(), text)) {
        return *gpu;
    }
    if (const core::Gpu* gpu = core::findGpu(userGpus, text)) {
        return *gpu;
    }
    std::uint64_t gib = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), gib);
    if (error == std::errc() && end == text.data() + text.size()) {
        for (const core::Gpu& gpu : core::builtinGpus()) {
            if (gpu.memoryGiB == gib) {
                return gpu;
            }
        }
    }
    throw UsageError{fmt::format("--gpu takes a device id ({}) or a memory size in GiB; not '{}'",
                                 core::gpuIdList(core::builtinGpus()), text)};
}

core::WeightFormat weightFormatNamed(const std::string& flag, const std::string& text) {
    const auto parsed = core::parseWeightFormat(text);
    if (!parsed) {
        throw UsageError{fmt::format("{} takes one of {}; not '{}'", flag, core::weightFormatIdList(), text)};
    }
    return *parsed;
}

} // namespace

int printUsageError(const UsageError& error, std::string_view usage, std::ostream& err) {
    if (error.showUsage) {
        fmt::print(err, "archplay-cli: {}\n\nusage:\n{}", error.message, usage);
    } else {
        fmt::print(err, "archplay-cli: {}\n", error.message);
    }
    return BadUsage;
}

UsageError refusedRequest(const core::Diagnostics& diagnostics,
                          const std::function<std::string(const std::string& field)>& flagOf) {
    std::string message;
    for (const core::Diagnostic& d : diagnostics) {
        if (d.severity == core::Severity::Error) {
            message += fmt::format("{}{}: {}", message.empty() ? "" : "; ", flagOf(d.field), d.message);
        }
    }
    return UsageError{message, false};
}

void requireOneConfig(const Options& options) {
    if (options.positional.size() != 1) {
        throw UsageError{"expected exactly one CONFIG (a config.json path or a preset id)"};
    }
}

const std::string* Options::value(const std::string& flag) const {
    const auto it = values.find(flag);
    return it == values.end() ? nullptr : &it->second;
}

Options parseOptions(const std::vector<std::string>& args, const std::vector<std::string>& valueFlags,
                     const std::vector<std::string>& switches) {
    Options options;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--json") {
            options.json = true;
        } else if (arg == "--best-effort") {
            options.bestEffort = true;
        } else if (std::find(switches.begin(), switches.end(), arg) != switches.end()) {
            options.switches.insert(arg);
        } else if (std::find(valueFlags.begin(), valueFlags.end(), arg) != valueFlags.end()) {
            if (i + 1 >= args.size()) {
                throw UsageError{fmt::format("{} needs a value", arg)};
            }
            options.values[arg] = args[++i];
        } else if (arg.starts_with("-") && arg != "-") { // a lone "-" is standard output
            throw UsageError{fmt::format("unknown option {}", arg)};
        } else {
            options.positional.push_back(arg);
        }
    }
    return options;
}

core::DType dtypeName(const std::string& flag, const std::string& text) {
    const auto parsed = core::parseDType(text);
    if (!parsed) {
        throw UsageError{fmt::format("{} takes fp32, fp16, bf16, fp8, int8 or int4, not '{}'", flag, text)};
    }
    return *parsed;
}

std::uint64_t wholeNumber(const std::string& flag, const std::string& text, bool allowZero) {
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size() || (!allowZero && number == 0)) {
        throw UsageError{
            fmt::format("{} takes a {} whole number, not '{}'", flag, allowZero ? "non-negative" : "positive", text)};
    }
    return number;
}

std::uint64_t countNumber(const std::string& flag, const std::string& text) {
    const std::optional<std::uint64_t> count = core::parseCount(text);
    if (!count || *count == 0) {
        throw UsageError{
            fmt::format("{} takes a positive count such as 7B, 1.5B, 350M or 7000000000, not '{}'", flag, text)};
    }
    return *count;
}

std::uint64_t byteSize(const std::string& flag, const std::string& text) {
    // Bytes, or a number with a binary unit: "4093640704", "3.8125GiB", "512 MiB".
    constexpr std::pair<std::string_view, double> kUnits[] = {
        {"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}, {"B", 1.0}};
    std::string_view number(text);
    double scale = 1;
    for (const auto& [unit, bytes] : kUnits) {
        if (number.ends_with(unit)) {
            number.remove_suffix(unit.size());
            scale = bytes;
            break;
        }
    }
    while (!number.empty() && number.back() == ' ') {
        number.remove_suffix(1);
    }
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    const double bytes = value * scale;
    if (number.empty() || error != std::errc() || end != number.data() + number.size() || !(bytes >= 1) ||
        bytes >= 18446744073709551615.0 || (scale == 1 && bytes != std::floor(bytes))) {
        throw UsageError{fmt::format("{} takes a size such as 4093640704, 3.81GiB or 512MiB, not '{}'", flag, text)};
    }
    return static_cast<std::uint64_t>(std::floor(bytes));
}

double fractionNumber(const std::string& flag, const std::string& text) {
    const bool percent = text.ends_with('%');
    const std::string_view number(text.data(), text.size() - (percent ? 1 : 0));
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || error != std::errc() || end != number.data() + number.size() || !std::isfinite(value)) {
        throw UsageError{
            fmt::format("{} takes a percentage such as 5% or a fraction such as 0.05, not '{}'", flag, text)};
    }
    return percent ? value / 100 : value;
}

std::pair<std::uint64_t, std::uint64_t> wholeRange(const std::string& flag, const std::string& text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos) {
        const std::uint64_t value = wholeNumber(flag, text, false);
        return {value, value};
    }
    try {
        return {wholeNumber(flag, text.substr(0, colon), false), wholeNumber(flag, text.substr(colon + 1), false)};
    } catch (const UsageError&) {
        throw UsageError{fmt::format("{} takes MIN:MAX, two positive whole numbers, not '{}'", flag, text)};
    }
}

const std::vector<std::string>& scenarioFlags() {
    static const std::vector<std::string> flags = {"--gpu-file",
                                                   "--seq",
                                                   "--batch",
                                                   "--encoder-seq",
                                                   "--kv-dtype",
                                                   "--weight-dtype",
                                                   "--weights-dtype",
                                                   "--state-dtype",
                                                   "--allocator",
                                                   "--gpu",
                                                   "--gpus",
                                                   "--tokens",
                                                   "--micro-batch",
                                                   "--tp",
                                                   "--zero",
                                                   "--recompute",
                                                   "--optimizer",
                                                   "--mfu",
                                                   "--activation-dtype",
                                                   "--prefill-chunk",
                                                   "--gpu-memory-utilization",
                                                   "--kv-cache-memory"};
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
        scenario.kvDType = dtypeName("--kv-dtype", *text);
    }
    for (const char* flag : {"--weight-dtype", "--weights-dtype"}) {
        if (const std::string* text = value(flag)) {
            scenario.weightFormat = weightFormatNamed(flag, *text);
            scenario.weightsAsShipped = false;
        }
    }
    if (const std::string* text = value("--activation-dtype")) {
        scenario.activationDType = dtypeName("--activation-dtype", *text);
    }
    if (const std::string* text = value("--state-dtype")) {
        scenario.stateDType = dtypeName("--state-dtype", *text);
    }
    if (const std::string* text = value("--allocator")) {
        const std::optional<core::KvAllocator> allocator = core::parseKvAllocator(*text);
        if (!allocator) {
            throw UsageError{fmt::format("--allocator takes {}, not '{}'", core::kvAllocatorChoices(), *text)};
        }
        scenario.kvAllocator = *allocator;
    }
    if (const std::string* text = value("--gpu")) {
        const std::string* file = value("--gpu-file");
        scenario.gpu = gpuNamed(*text, file ? gpuFile(*file) : std::vector<core::Gpu>{});
    }
    if (const std::string* text = value("--gpus")) {
        scenario.gpuCount = wholeNumber("--gpus", *text, false);
    }
    if (const std::string* text = value("--prefill-chunk")) {
        scenario.prefillChunk = wholeNumber("--prefill-chunk", *text, false);
    }
    if (const std::string* text = value("--tokens")) {
        scenario.trainingTokens = countNumber("--tokens", *text);
    }
    if (const std::string* text = value("--micro-batch")) {
        scenario.microBatch = wholeNumber("--micro-batch", *text, false);
    }
    if (const std::string* text = value("--tp")) {
        scenario.tensorParallel = wholeNumber("--tp", *text, false);
    }
    if (const std::string* text = value("--zero")) {
        const std::uint64_t stage = wholeNumber("--zero", *text, true);
        if (stage > 3) {
            throw UsageError{fmt::format("--zero takes a ZeRO stage 0, 1, 2 or 3; not '{}'", *text)};
        }
        scenario.zeroStage = static_cast<int>(stage);
    }
    if (const std::string* text = value("--recompute")) {
        const auto recompute = core::parseRecompute(*text);
        if (!recompute) {
            throw UsageError{fmt::format("--recompute takes none, selective or full; not '{}'", *text)};
        }
        scenario.recompute = *recompute;
    }
    if (const std::string* text = value("--optimizer")) {
        const auto optimizer = core::parseOptimizer(*text);
        if (!optimizer) {
            throw UsageError{fmt::format("--optimizer takes adam16 (bf16 gradients, 16 bytes per parameter) or "
                                         "adam18 (fp32 gradients, 18); not '{}'",
                                         *text)};
        }
        scenario.optimizer = *optimizer;
    }
    if (const std::string* text = value("--gpu-memory-utilization")) {
        const double share = fractionNumber("--gpu-memory-utilization", *text);
        if (!(share > 0) || share > 1) {
            throw UsageError{
                fmt::format("--gpu-memory-utilization takes a share above 0 and at most 100%; not '{}'", *text)};
        }
        scenario.gpuMemoryUtilization = share;
    }
    if (const std::string* text = value("--kv-cache-memory")) {
        scenario.kvCacheMemoryBytes = byteSize("--kv-cache-memory", *text);
    }
    if (const std::string* text = value("--mfu")) {
        const double mfu = fractionNumber("--mfu", *text);
        if (!(mfu > 0) || mfu > 1) {
            throw UsageError{fmt::format("--mfu takes a utilisation above 0 and at most 100%; not '{}'", *text)};
        }
        scenario.mfu = mfu;
    }
    return scenario;
}

} // namespace archplay::cli

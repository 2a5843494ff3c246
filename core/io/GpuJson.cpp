// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/GpuJson.h"

#include "core/io/JsonText.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace archplay::core {
namespace {

constexpr double kGB = 1e9;
constexpr double kTera = 1e12;
// Larger than any device; keeps products of the figures finite.
constexpr double kMostGiB = 1 << 30;
constexpr double kMostGBs = 1e9;
constexpr double kMostTflops = 1e9;

/// A bound as a message states it: 1073741824, 0.001 (not "0", which the bound refuses).
std::string boundText(double bound) {
    return bound == std::floor(bound) ? fmt::format("{}", static_cast<long long>(bound)) : fmt::format("{}", bound);
}

/// A finite number in [minimum, maximum] at `key`; absent leaves `out` when `optional`.
bool readNumber(const nlohmann::json& object, const char* key, double minimum, double maximum, bool optional,
                double& out, Diagnostics& diagnostics, const std::string& field) {
    const auto it = object.find(key);
    if (it == object.end()) {
        if (!optional) {
            diagnostics.push_back({Severity::Error, field + "." + key, "missing"});
        }
        return optional;
    }
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < minimum ||
        it->get<double>() > maximum) {
        diagnostics.push_back({Severity::Error, field + "." + key,
                               fmt::format("expected a number from {} to {}", boundText(minimum), boundText(maximum))});
        return false;
    }
    out = it->get<double>();
    return true;
}

} // namespace

nlohmann::json gpuJson(const Gpu& gpu) {
    nlohmann::json out = {{"id", gpu.id},
                          {"name", gpu.name},
                          {"memory_gib", gpu.memoryGiB},
                          {"bandwidth_gb_s", gpu.bandwidth / kGB},
                          {"bf16_tflops", gpu.bf16Flops / kTera},
                          {"fp8_tflops", gpu.fp8Flops / kTera},
                          {"source", gpu.source}};
    if (gpu.estimated) {
        out["estimated"] = true;
    }
    if (gpu.measuredBandwidth) {
        out["measured_bandwidth_tb_s"] = {gpu.measuredBandwidth->low / kTera, gpu.measuredBandwidth->high / kTera};
        out["measured_bandwidth_source"] = gpu.measuredBandwidth->source;
    }
    return out;
}

bool readGpu(const nlohmann::json& object, Gpu& gpu, Diagnostics& diagnostics, const std::string& field) {
    if (!object.is_object()) {
        diagnostics.push_back({Severity::Error, field, "expected an object"});
        return false;
    }
    Gpu read;
    const auto text = [&](const char* key, std::string& out, bool required) {
        const auto it = object.find(key);
        if (it == object.end() && !required) {
            return true;
        }
        if (it == object.end() || !it->is_string() || (required && it->get<std::string>().empty())) {
            diagnostics.push_back({Severity::Error, field + "." + key, "expected a non-empty string"});
            return false;
        }
        out = it->get<std::string>();
        // A control character would reach a report's LaTeX, a table or a terminal as it is.
        const auto control = std::find_if(out.begin(), out.end(), [](char c) {
            const auto byte = static_cast<unsigned char>(c);
            return byte < 0x20 || byte == 0x7F;
        });
        if (control != out.end()) {
            diagnostics.push_back({Severity::Error, field + "." + key,
                                   fmt::format("contains a control character (byte 0x{:02X}); write it without",
                                               static_cast<unsigned char>(*control))});
            return false;
        }
        return true;
    };
    bool ok = text("id", read.id, true);
    if (ok && std::all_of(read.id.begin(), read.id.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        // `--gpu 80` reads digits alone as a memory size in GiB.
        diagnostics.push_back(
            {Severity::Error, field + ".id",
             "\"" + read.id + "\" is digits alone, which --gpu reads as a memory size; add a letter"});
        ok = false;
    }
    ok = text("name", read.name, false) && ok;
    ok = text("source", read.source, false) && ok;
    double memory = 0, bandwidth = 0, bf16 = 0, fp8 = 0;
    ok = readNumber(object, "memory_gib", 1, kMostGiB, false, memory, diagnostics, field) && ok;
    ok = readNumber(object, "bandwidth_gb_s", 0.001, kMostGBs, false, bandwidth, diagnostics, field) && ok;
    ok = readNumber(object, "bf16_tflops", 0.001, kMostTflops, false, bf16, diagnostics, field) && ok;
    ok = readNumber(object, "fp8_tflops", 0, kMostTflops, true, fp8, diagnostics, field) && ok;
    if (ok && memory != std::floor(memory)) {
        diagnostics.push_back({Severity::Error, field + ".memory_gib", "expected a whole number of GiB"});
        ok = false;
    }
    if (const auto it = object.find("estimated"); it != object.end()) {
        if (!it->is_boolean()) {
            diagnostics.push_back({Severity::Error, field + ".estimated", "expected true or false"});
            ok = false;
        } else {
            read.estimated = it->get<bool>();
        }
    }
    if (const auto it = object.find("measured_bandwidth_tb_s"); it != object.end()) {
        // [low, high] in TB/s, at most the peak: what kernels achieve of it.
        const bool pair = it->is_array() && it->size() == 2 && (*it)[0].is_number() && (*it)[1].is_number();
        const double low = pair ? (*it)[0].get<double>() : 0;
        const double high = pair ? (*it)[1].get<double>() : 0;
        if (!pair || !(low > 0) || !(high >= low) || high * 1000 > bandwidth) {
            diagnostics.push_back({Severity::Error, field + ".measured_bandwidth_tb_s",
                                   "expected [low, high] in TB/s, above 0 and at most the peak bandwidth"});
            ok = false;
        } else {
            read.measuredBandwidth = MeasuredBandwidth{low * kTera, high * kTera, {}};
            ok = text("measured_bandwidth_source", read.measuredBandwidth->source, false) && ok;
        }
    }
    if (!ok) {
        return false;
    }
    read.memoryGiB = static_cast<std::uint64_t>(memory);
    read.bandwidth = bandwidth * kGB;
    read.bf16Flops = bf16 * kTera;
    read.fp8Flops = fp8 * kTera;
    if (read.name.empty()) {
        read.name = read.id;
    }
    // A built-in device written out and read back is the built-in device again.
    read.builtin = true;
    const Gpu* builtin = findGpu(builtinGpus(), read.id);
    read.builtin = builtin != nullptr && *builtin == read;
    gpu = std::move(read);
    return true;
}

std::string gpuCatalogueToJson(const std::vector<Gpu>& gpus) {
    nlohmann::json list = nlohmann::json::array();
    for (const Gpu& gpu : gpus) {
        list.push_back(gpuJson(gpu));
    }
    return nlohmann::json{{"archplay_gpus", 1}, {"gpus", list}}.dump(2) + "\n";
}

GpuCatalogueRead gpuCatalogueFromJson(std::string_view text) {
    GpuCatalogueRead result;
    const std::optional<nlohmann::json> json = parseJsonText(text, result.diagnostics);
    if (!json) {
        return result;
    }
    const nlohmann::json* list = &*json;
    if (json->is_object()) {
        if (const auto version = json->find("archplay_gpus"); version != json->end()) {
            if (!version->is_number_integer() || version->get<std::int64_t>() < 1) {
                result.diagnostics.push_back({Severity::Error, "archplay_gpus", "expected the catalogue version, 1"});
                return result;
            }
            if (version->get<std::int64_t>() > 1) {
                result.diagnostics.push_back(
                    {Severity::Error, "archplay_gpus",
                     fmt::format("version {} is newer than this archplay reads (1)", version->get<std::int64_t>())});
                return result;
            }
        }
        const auto it = json->find("gpus");
        if (it == json->end()) {
            result.diagnostics.push_back({Severity::Error, "gpus", "missing: expected {\"gpus\": [...]}"});
            return result;
        }
        list = &*it;
    }
    if (!list->is_array()) {
        result.diagnostics.push_back({Severity::Error, "gpus", "expected an array of devices"});
        return result;
    }
    if (list->size() > kMaxUserGpus) {
        result.diagnostics.push_back(
            {Severity::Error, "gpus",
             std::to_string(list->size()) + " devices; a catalogue holds at most " + std::to_string(kMaxUserGpus)});
        return result;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string field = "gpus[" + std::to_string(i) + "]";
        Gpu gpu;
        if (!readGpu((*list)[i], gpu, result.diagnostics, field)) {
            continue;
        }
        bool tooLong = false;
        for (auto [key, value, most] :
             {std::tuple{"id", &gpu.id, kMaxGpuIdBytes}, std::tuple{"name", &gpu.name, kMaxGpuNameBytes},
              std::tuple{"source", &gpu.source, kMaxGpuSourceBytes}}) {
            if (value->size() > most) {
                result.diagnostics.push_back(
                    {Severity::Error, field + "." + key,
                     std::to_string(value->size()) + " bytes long; at most " + std::to_string(most)});
                tooLong = true;
            }
        }
        if (tooLong) {
            continue;
        }
        if (findGpu(builtinGpus(), gpu.id) != nullptr || findGpu(result.gpus, gpu.id) != nullptr) {
            result.diagnostics.push_back(
                {Severity::Error, field + ".id", "\"" + gpu.id + "\" is already in the catalogue; choose another id"});
            continue;
        }
        gpu.builtin = false;
        result.gpus.push_back(std::move(gpu));
    }
    return result;
}

GpuCatalogueRead checkUserGpus(const std::vector<Gpu>& gpus) {
    return gpuCatalogueFromJson(gpuCatalogueToJson(gpus));
}

GpuFigures gpuFigures(const Gpu& gpu) {
    return {gpu.id,
            gpu.name,
            static_cast<double>(gpu.memoryGiB),
            gpu.bandwidth / kGB,
            gpu.bf16Flops / kTera,
            gpu.fp8Flops / kTera,
            gpu.source,
            gpu.estimated,
            gpu.measuredBandwidth ? gpu.measuredBandwidth->low / kTera : 0,
            gpu.measuredBandwidth ? gpu.measuredBandwidth->high / kTera : 0,
            gpu.measuredBandwidth ? gpu.measuredBandwidth->source : std::string()};
}

bool gpuFromFigures(const GpuFigures& figures, Gpu& gpu, Diagnostics& diagnostics) {
    nlohmann::json object = {{"id", figures.id},
                             {"name", figures.name},
                             {"memory_gib", figures.memoryGiB},
                             {"bandwidth_gb_s", figures.bandwidthGBs},
                             {"bf16_tflops", figures.bf16Tflops},
                             {"fp8_tflops", figures.fp8Tflops},
                             {"source", figures.source}};
    if (figures.estimated) {
        object["estimated"] = true;
    }
    if (figures.measuredLowTBs > 0 || figures.measuredHighTBs > 0) {
        object["measured_bandwidth_tb_s"] = {figures.measuredLowTBs, figures.measuredHighTBs};
        object["measured_bandwidth_source"] = figures.measuredSource;
    }
    Diagnostics found;
    if (!readGpu(object, gpu, found, {})) {
        // readGpu names "<field>.<key>"; a form has no enclosing field, so the key alone.
        for (Diagnostic& diagnostic : found) {
            if (!diagnostic.field.empty() && diagnostic.field.front() == '.') {
                diagnostic.field.erase(0, 1);
            }
            diagnostics.push_back(std::move(diagnostic));
        }
        return false;
    }
    return true;
}

} // namespace archplay::core

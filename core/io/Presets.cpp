// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/Presets.h"

#include "core/analysis/Analysis.h"
#include "core/io/ConfigJson.h"
#include "core/util/Format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace archplay::core {
namespace detail {
extern const std::string_view kPresetTexts[];
extern const std::size_t kPresetCount;
} // namespace detail

namespace {

// Families in the order a person scans them: the most used decoder families first.
constexpr std::string_view kFamilyOrder[] = {
    "Llama",     "Mistral",
    "DeepSeek",  "Qwen",
    "gpt-oss",   "GLM",
    "MiniMax",   "ERNIE",
    "Hunyuan",   "Seed",
    "EXAONE",    "Apertus",
    "Cohere",    "dots",
    "LFM2",      "SmolLM",
    "Gemma",     "Phi",
    "OLMo",      "Granite",
    "StarCoder", "Falcon",
    "GPT-2",     "GPT-3",
    "GPT-J",     "Pythia / GPT-NeoX",
    "OPT",       "BLOOM",
    "BERT",      "T5",
    "BART",      "Transformer (2017)",
};

std::size_t familyRank(std::string_view family) {
    const auto* it = std::find(std::begin(kFamilyOrder), std::end(kFamilyOrder), family);
    return static_cast<std::size_t>(it - std::begin(kFamilyOrder));
}

PresetInfo readInfo(const nlohmann::json& meta) {
    PresetInfo info;
    auto text = [&](const char* key) {
        auto it = meta.find(key);
        return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    info.id = text("id");
    info.name = text("name");
    info.family = text("family");
    info.source = text("source");
    info.released = text("released");
    info.publishedLabel = text("published_label");
    info.paramsSource = text("params_source");
    info.notes = text("notes");
    if (auto it = meta.find("published_params"); it != meta.end() && it->is_number_unsigned()) {
        info.publishedParams = it->get<std::uint64_t>();
    }
    if (auto it = meta.find("published_active"); it != meta.end() && it->is_object()) {
        // "value": "5.13B" (billions, as rounded as published); "excludes": "embedding" or absent.
        const auto field = [&](const char* key) {
            const auto found = it->find(key);
            return found != it->end() && found->is_string() ? found->get<std::string>() : std::string();
        };
        const std::string value = field("value");
        if (value.size() < 2 || value.back() != 'B') {
            return info; // not a count in billions: no published active count
        }
        const std::size_t point = value.find('.');
        PublishedActive active;
        active.decimals = point == std::string::npos ? 0 : static_cast<int>(value.size() - point - 2);
        active.withoutEmbedding = field("excludes") == "embedding";
        active.source = field("source");
        double billions = 0;
        const char* end = value.data() + value.size() - 1;
        const auto [parsed, error] = std::from_chars(value.data(), end, billions);
        if (error == std::errc() && parsed == end && active.decimals >= 0) {
            active.billions = billions;
            info.publishedActive = active;
        }
    }
    return info;
}

} // namespace

double ReleaseDate::years() const {
    return month == 0 ? year + 0.5 : year + (month - 0.5) / 12.0;
}

std::optional<ReleaseDate> parseReleaseDate(std::string_view text) {
    const auto digits = [](std::string_view part) {
        int value = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
        return error == std::errc() && end == part.data() + part.size() && !part.empty() &&
                       std::isdigit(static_cast<unsigned char>(part.front()))
                   ? std::optional<int>(value)
                   : std::nullopt;
    };
    if (text.size() != 4 && (text.size() != 7 || text[4] != '-')) {
        return std::nullopt;
    }
    const std::optional<int> year = digits(text.substr(0, 4));
    if (!year || *year < 1950 || *year > 2100) {
        return std::nullopt;
    }
    ReleaseDate date{*year, 0};
    if (text.size() == 7) {
        const std::optional<int> month = digits(text.substr(5));
        if (!month || *month < 1 || *month > 12) {
            return std::nullopt;
        }
        date.month = *month;
    }
    return date;
}

const std::vector<Preset>& builtinPresets() {
    static const std::vector<Preset> presets = [] {
        struct Sortable {
            Preset preset;
            std::uint64_t params;
        };
        std::vector<Sortable> sortable;
        for (std::size_t i = 0; i < detail::kPresetCount; ++i) {
            const std::string_view text = detail::kPresetTexts[i];
            const nlohmann::json object = nlohmann::json::parse(text, nullptr, false);
            if (!object.is_object() || !object.contains("archplay_preset")) {
                continue;
            }
            Preset preset{readInfo(object["archplay_preset"]), text};
            const ImportResult imported = importConfig(object);
            const std::uint64_t params =
                imported.config ? analyze(*imported.config, Scenario{}).params.total : std::uint64_t{0};
            sortable.push_back({std::move(preset), params});
        }
        std::stable_sort(sortable.begin(), sortable.end(), [](const Sortable& a, const Sortable& b) {
            const std::size_t ra = familyRank(a.preset.info.family);
            const std::size_t rb = familyRank(b.preset.info.family);
            if (ra != rb) {
                return ra < rb;
            }
            if (a.preset.info.family != b.preset.info.family) {
                return a.preset.info.family < b.preset.info.family;
            }
            return a.params < b.params;
        });
        std::vector<Preset> result;
        result.reserve(sortable.size());
        for (Sortable& item : sortable) {
            result.push_back(std::move(item.preset));
        }
        return result;
    }();
    return presets;
}

const Preset* findPreset(std::string_view id) {
    const auto& presets = builtinPresets();
    auto it = std::find_if(presets.begin(), presets.end(), [&](const Preset& p) { return p.info.id == id; });
    return it == presets.end() ? nullptr : &*it;
}

std::optional<ModelConfig> presetConfig(const Preset& preset) {
    return importConfigText(preset.json).config;
}

std::string presetSizeLabel(const PresetInfo& info) {
    return info.publishedParams ? shortCount(*info.publishedParams) : std::string();
}

} // namespace archplay::core

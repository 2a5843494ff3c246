// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/ModelConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// An active-parameter count as its vendor publishes it: rounded ("5.13B" is 5.13 x 10^9 to two
/// decimals), and counted by the vendor's convention.
struct PublishedActive {
    double billions = 0; ///< 5.13
    int decimals = 0;    ///< the decimals published: 2
    /// What the vendor leaves out of "active": false counts everything a token uses (archplay's active);
    /// true leaves out the input-embedding lookup, keeping the LM head (archplay's active_compute).
    bool withoutEmbedding = false;
    std::string source; ///< where it is published

    bool operator==(const PublishedActive&) const = default;
};

/// Metadata of a preset (the "archplay_preset" object of a presets/*.json file).
struct PresetInfo {
    std::string id;
    std::string name;
    std::string family;
    std::string source;   ///< Hugging Face repository or paper
    std::string released; ///< first public release (paper or checkpoint): "2024-04", or "2026" when the month is not
                          ///< certain; empty when unknown. parseReleaseDate() reads it.
    std::optional<std::uint64_t> publishedParams;   ///< exact published count of unique parameters
    std::string publishedLabel;                     ///< the size in the model's name, e.g. "8B"; for search
    std::optional<PublishedActive> publishedActive; ///< "published_active": {"value": "5.13B", "excludes", "source"}
    std::string paramsSource;
    std::string notes;
};

/// A release date: a year, and a month when it is known.
struct ReleaseDate {
    int year = 0;
    int month = 0; ///< 1-12; 0 when only the year is known

    /// The date as a position in time, in years: the middle of its month (2024-04: 2024.29), or the
    /// middle of the year when the month is not known (2026: 2026.5). For plots.
    double years() const;
    friend bool operator==(const ReleaseDate&, const ReleaseDate&) = default;
};

/// Reads "2024", or "2024-04" (month 01-12), with a year from 1950 to 2100; nullopt otherwise.
std::optional<ReleaseDate> parseReleaseDate(std::string_view text);

/// A preset built into the program: its metadata and its config.json text.
struct Preset {
    PresetInfo info;
    std::string_view json;
};

/// How a preset's size reads wherever it is listed: its published count as every count reads
/// (shortCount(): "8.03B", "109M", "13B"), else empty. The name-style published label ("8B", "110M")
/// is the model's name, not its size, and is only searched.
std::string presetSizeLabel(const PresetInfo& info);

/// Every built-in preset, ordered by family then by published size.
const std::vector<Preset>& builtinPresets();
/// The preset with this id, or nullptr.
const Preset* findPreset(std::string_view id);
/// Loads a preset's config. The config of a built-in preset always imports without error.
std::optional<ModelConfig> presetConfig(const Preset& preset);

} // namespace archplay::core

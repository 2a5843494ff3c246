// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string_view>

namespace archplay::core {

/// The human name of a Hugging Face model type that is not a transformer language model archplay
/// models (Whisper, ViT, Mamba, ...), or nullopt.
std::optional<std::string_view> otherArchitectureName(std::string_view modelType);

/// Why a language model's construction cannot be counted exactly (Gemma 3n, LongCat-Flash, ...), or nullopt.
std::optional<std::string_view> uncountableReason(std::string_view modelType);

} // namespace archplay::core

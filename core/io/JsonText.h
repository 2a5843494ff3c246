// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/validate/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string_view>

namespace archplay::core {

/// Nesting accepted in any JSON archplay reads (config.json, sessions, settings): real files nest
/// two to four levels, and copying or comparing JSON values recurses once per level.
inline constexpr int kMaxJsonNesting = 64;

/// Values accepted in any JSON archplay reads: real files hold a few hundred (a classifier's label
/// table a few tens of thousands), while each parsed value costs tens of bytes, so 64 MiB of `{},`
/// would take gigabytes.
inline constexpr std::size_t kMaxJsonValues = 1'000'000;

/// The one way archplay parses JSON text: refuses text nested deeper than kMaxJsonNesting or holding
/// more than kMaxJsonValues values before parsing (in one pass, without allocating), and turns every
/// parse error (malformed text, numbers out of range) into a diagnostic.
std::optional<nlohmann::json> parseJsonText(std::string_view text, Diagnostics& diagnostics);

} // namespace archplay::core

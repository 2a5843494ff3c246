// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Error: the config is impossible and nothing is computed. Warning: valid but probably a mistake.
/// Hint: valid, but a hardware- or convention-friendly value would serve better.
enum class Severity { Error, Warning, Hint };

/// One finding about a config. `field` is the Hugging Face config.json key it concerns (e.g.
/// "num_key_value_heads"), or empty when it concerns the file as a whole.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string field;
    std::string message;

    bool operator==(const Diagnostic&) const = default;
};

using Diagnostics = std::vector<Diagnostic>;

std::string_view toString(Severity severity);
/// True when any diagnostic is an error.
[[nodiscard]] bool hasErrors(const Diagnostics& diagnostics);

} // namespace archplay::core

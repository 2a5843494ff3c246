// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config/Field.h"

#include <string>
#include <string_view>
#include <vector>

namespace archplay::core {

/// Error: the config is impossible and nothing is computed. Warning: valid but probably a mistake.
/// Hint: valid, but a hardware- or convention-friendly value would serve better.
enum class Severity { Error, Warning, Hint };

/// One finding about a config, a session or a command. `field` names what it concerns as the input
/// spelled it (a config.json key such as "n_embd", a session's "scenario.batch", a command's option),
/// or is empty when it concerns the input as a whole; `target` is the field the user edits to fix
/// it (HiddenSize for GPT-2's n_embd), or None.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string field;
    std::string message;
    Field target = Field::None;

    bool operator==(const Diagnostic&) const = default;
};

using Diagnostics = std::vector<Diagnostic>;

std::string_view toString(Severity severity);
/// True when any diagnostic is an error.
[[nodiscard]] bool hasErrors(const Diagnostics& diagnostics);

} // namespace archplay::core

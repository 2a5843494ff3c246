// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/validate/Diagnostic.h"

#include <algorithm>

namespace archplay::core {

std::string_view toString(Severity severity) {
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Hint:
        return "hint";
    }
    return {};
}

bool hasErrors(const Diagnostics& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace archplay::core

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/JsonText.h"

#include <fmt/format.h>

#include <algorithm>

namespace archplay::core {
namespace {

/// The deepest nesting of arrays and objects in JSON text, ignoring brackets inside strings.
int nestingDepth(std::string_view text) {
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (inString) {
            if (ch == '\\') {
                ++i;
            } else if (ch == '"') {
                inString = false;
            }
        } else if (ch == '"') {
            inString = true;
        } else if (ch == '[' || ch == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (ch == ']' || ch == '}') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

std::optional<nlohmann::json> parseJsonText(std::string_view text, Diagnostics& diagnostics) {
    if (nestingDepth(text) > kMaxJsonNesting) {
        diagnostics.push_back(
            {Severity::Error, "",
             fmt::format("the JSON nests deeper than {} levels; archplay's files are nearly flat", kMaxJsonNesting)});
        return std::nullopt;
    }
    // allow_exceptions=false still throws for out-of-range numbers such as 1e400; catch everything.
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& error) {
        std::string reason = error.what();
        if (auto colon = reason.find("] "); colon != std::string::npos) {
            reason = reason.substr(colon + 2);
        }
        diagnostics.push_back({Severity::Error, "", "the text is not valid JSON: " + reason});
        return std::nullopt;
    }
}

} // namespace archplay::core

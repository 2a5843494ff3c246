// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/JsonText.h"

#include "core/util/Format.h"

#include <fmt/format.h>

#include <algorithm>

namespace archplay::core {
namespace {

/// What a look at JSON text without parsing it tells: its deepest nesting of arrays and objects, and
/// an upper bound on the values it holds (every value after the first in an array or object follows
/// a comma, and every array or object opens with a bracket). Brackets and commas in strings do not count.
struct JsonShape {
    int depth = 0;
    std::size_t values = 1;
};

JsonShape jsonShape(std::string_view text) {
    JsonShape shape;
    int depth = 0;
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
            shape.depth = std::max(shape.depth, ++depth);
            ++shape.values;
        } else if (ch == ']' || ch == '}') {
            --depth;
        } else if (ch == ',') {
            ++shape.values;
        }
    }
    return shape;
}

} // namespace

std::optional<nlohmann::json> parseJsonText(std::string_view text, Diagnostics& diagnostics) {
    const JsonShape shape = jsonShape(text);
    if (shape.depth > kMaxJsonNesting) {
        diagnostics.push_back(
            {Severity::Error, "",
             fmt::format("the JSON nests deeper than {} levels; archplay's files are nearly flat", kMaxJsonNesting)});
        return std::nullopt;
    }
    if (shape.values > kMaxJsonValues) {
        diagnostics.push_back({Severity::Error, "",
                               fmt::format("the JSON holds more than {} values; a config.json holds a few hundred",
                                           withThousands(kMaxJsonValues))});
        return std::nullopt;
    }
    // allow_exceptions=false still throws for out-of-range numbers such as 1e400; catch everything.
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& error) {
        std::string what = error.what();
        if (auto colon = what.find("] "); colon != std::string::npos) {
            what = what.substr(colon + 2);
        }
        // nlohmann quotes the bytes it last read, which may be anything: a message must stay printable
        // UTF-8 (a JSON report that carries it would not dump), so other bytes are written as \xNN.
        std::string reason;
        for (const char c : what) {
            const auto byte = static_cast<unsigned char>(c);
            reason += byte < 0x20 || byte >= 0x7F ? fmt::format("\\x{:02X}", byte) : std::string(1, c);
        }
        diagnostics.push_back({Severity::Error, "", "the text is not valid JSON: " + reason});
        return std::nullopt;
    }
}

} // namespace archplay::core

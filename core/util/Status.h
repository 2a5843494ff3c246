// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <utility>

namespace archplay::core {

/// The outcome of an operation that either succeeds or fails for a reason worth telling the user.
/// [[nodiscard]]: a caller cannot drop a failure by accident, as it could an empty error string.
class [[nodiscard]] Status {
public:
    /// Success.
    Status() = default;

    /// A failure with its reason, one sentence without a final period ("Permission denied"). An empty
    /// reason still fails, as "unknown error".
    [[nodiscard]] static Status failure(std::string reason) {
        Status status;
        status.m_failed = true;
        status.m_error = reason.empty() ? std::string("unknown error") : std::move(reason);
        return status;
    }

    [[nodiscard]] bool ok() const { return !m_failed; }
    /// Why it failed; empty on success.
    [[nodiscard]] const std::string& error() const { return m_error; }

private:
    bool m_failed = false;
    std::string m_error;
};

} // namespace archplay::core

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one rule for reading and writing the user's files, shared by archplay-cli and the window.

#include "core/util/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace archplay::core {

/// The most bytes a config or session file may hold: 64 MiB (a config.json is a few kilobytes).
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{64} << 20;

/// What readRegularFile() read: the bytes, or why not.
struct FileRead {
    std::optional<std::string> bytes;
    std::string error; ///< one phrase: "it is a directory", "it is not a regular file (a device, pipe or socket)", ...
};

/// Reads the whole of a regular file of at most `maxBytes` bytes. Refuses directories, devices, pipes
/// and sockets before reading a byte (the file is opened without blocking and the opened file is
/// checked), and stops one byte past the limit whatever the file's size says (/proc files say 0).
[[nodiscard]] FileRead readRegularFile(const std::string& path, std::uint64_t maxBytes = kMaxInputFileBytes);

/// How a write treats a target that is read-only.
enum class ReadOnlyTarget {
    Refuse,  ///< fail with "it is read-only"
    Replace, ///< replace it anyway (the user confirmed, or archplay-cli --force); it stays read-only
};

/// True when `path` (through symbolic links) names an existing regular file that is read-only: no
/// write permission bit is set, or this process may not write it. The bits are read directly because
/// root may write any file.
[[nodiscard]] bool isReadOnlyFile(const std::string& path);

/// Whether writeFileAtomically() could write `path`, checked without writing: its directory exists and
/// may be written, it is not a directory, device, pipe or socket, and unless `readOnly` is Replace it
/// is not a read-only file. An export of several files checks each target first, so that a refused
/// one leaves every other file as it was. Returns success, or the same reason the write would give.
[[nodiscard]] Status checkWritableTarget(const std::string& path, ReadOnlyTarget readOnly = ReadOnlyTarget::Refuse);

/// Writes `bytes` to `path` through a temporary file in the same directory that is renamed over the
/// target once complete, so nobody sees a half-written file and a failure leaves the old file as it
/// was. A symbolic link is written through: its final target is replaced and the link stays a link.
/// An existing target keeps its permissions. Refuses a target that is not a regular file (a
/// directory, device, pipe or socket: /dev/null must stay a device) and, unless `readOnly` is
/// Replace, a read-only file. Returns success, or a failure saying why ("the directory /x does not
/// exist", "it is read-only", "Permission denied", ...).
[[nodiscard]] Status writeFileAtomically(const std::string& path, std::string_view bytes,
                                         ReadOnlyTarget readOnly = ReadOnlyTarget::Refuse);

} // namespace archplay::core

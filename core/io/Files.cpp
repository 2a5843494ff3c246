// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/Files.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <variant>
#include <vector>

namespace archplay::core {
namespace {

namespace fs = std::filesystem;

std::string lastError() {
    return std::strerror(errno);
}

/// Why a file of this mode cannot be read or replaced; empty for a regular file.
std::string notRegular(mode_t mode) {
    if (S_ISDIR(mode)) {
        return "it is a directory";
    }
    return S_ISREG(mode) ? std::string() : std::string("it is not a regular file (a device, pipe or socket)");
}

/// Writes everything, retrying short writes and interruptions.
bool writeAll(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
}

/// The file a chain of symbolic links ends at (the path itself when it is no link); nullopt for a
/// chain longer than the kernel's own limit of 40, which is a loop.
std::optional<fs::path> resolveLinks(fs::path path) {
    for (int hops = 0; hops <= 40; ++hops) {
        std::error_code error;
        if (!fs::is_symlink(path, error)) {
            return path;
        }
        const fs::path target = fs::read_symlink(path, error);
        if (error) {
            return path;
        }
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    return std::nullopt;
}

bool readOnly(const std::string& path, const struct stat& status) {
    return (status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path.c_str(), W_OK) != 0;
}

} // namespace

FileRead readRegularFile(const std::string& path, std::uint64_t maxBytes) {
    FileRead result;
    // Without O_NONBLOCK, opening a pipe with no writer would wait forever. POSIX open() is variadic.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); // NOLINT(cppcoreguidelines-pro-type-vararg)
    if (fd < 0) {
        result.error = errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : lastError();
        return result;
    }
    struct stat status {};
    if (::fstat(fd, &status) != 0) {
        result.error = lastError();
    } else {
        result.error = notRegular(status.st_mode);
    }
    if (!result.error.empty()) {
        ::close(fd);
        return result;
    }
    std::string bytes;
    std::vector<char> chunk(std::size_t{1} << 16);
    for (;;) {
        const ssize_t got = ::read(fd, chunk.data(), chunk.size());
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            result.error = lastError();
            break;
        }
        if (got == 0) {
            result.bytes = std::move(bytes);
            break;
        }
        bytes.append(chunk.data(), static_cast<std::size_t>(got));
        if (bytes.size() > maxBytes) {
            result.error = fmt::format("larger than {} MiB; a config.json is a few kilobytes", maxBytes >> 20);
            break;
        }
    }
    ::close(fd);
    return result;
}

bool isReadOnlyFile(const std::string& path) {
    const std::optional<fs::path> target = resolveLinks(path);
    struct stat status {};
    return target && ::stat(target->c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
           readOnly(target->string(), status);
}

namespace {

/// The checks every write makes before it creates a byte: the target's final path (links followed),
/// its directory, and the mode an existing target keeps.
struct Target {
    fs::path path;
    fs::path directory;
    mode_t mode = 0;
};

std::variant<Target, Status> resolveTarget(const std::string& path, ReadOnlyTarget readOnlyTarget) {
    if (path.empty()) {
        return Status::failure("no file name given");
    }
    const std::optional<fs::path> resolved = resolveLinks(path);
    if (!resolved) {
        return Status::failure("its symbolic links form a loop");
    }
    Target target{*resolved, resolved->parent_path(), 0};
    if (target.directory.empty()) {
        target.directory = ".";
    }
    std::error_code error;
    if (!fs::is_directory(target.directory, error)) {
        return Status::failure("the directory " + target.directory.string() + " does not exist");
    }
    struct stat existing {};
    if (::stat(target.path.c_str(), &existing) == 0) {
        if (const std::string reason = notRegular(existing.st_mode); !reason.empty()) {
            return Status::failure(reason);
        }
        if (readOnlyTarget == ReadOnlyTarget::Refuse && readOnly(target.path.string(), existing)) {
            return Status::failure("it is read-only");
        }
        target.mode = existing.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        target.mode = 0666 & ~mask;
    }
    return target;
}

} // namespace

Status checkWritableTarget(const std::string& path, ReadOnlyTarget readOnly) {
    auto target = resolveTarget(path, readOnly);
    if (Status* failed = std::get_if<Status>(&target)) {
        return *failed;
    }
    // The temporary file is created in the directory, which must therefore be writable.
    if (::access(std::get<Target>(target).directory.c_str(), W_OK | X_OK) != 0) {
        return Status::failure(lastError());
    }
    return {};
}

Status writeFileAtomically(const std::string& path, std::string_view bytes, ReadOnlyTarget readOnlyTarget) {
    auto resolved = resolveTarget(path, readOnlyTarget);
    if (Status* failed = std::get_if<Status>(&resolved)) {
        return *failed;
    }
    const Target& target = std::get<Target>(resolved);
    const std::string pattern = (target.directory / ("." + target.path.filename().string() + ".XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
        return Status::failure(lastError());
    }
    const std::string temporary(name.data());
    // The failure is read from errno before the clean-up can change it.
    auto removeTemporary = [&](const std::string& reason) {
        ::unlink(temporary.c_str());
        return Status::failure(reason);
    };
    if (!writeAll(fd, bytes) || ::fchmod(fd, target.mode) != 0 || ::fsync(fd) != 0) {
        const std::string reason = lastError();
        ::close(fd);
        return removeTemporary(reason);
    }
    if (::close(fd) != 0 || ::rename(temporary.c_str(), target.path.c_str()) != 0) {
        return removeTemporary(lastError());
    }
    return {};
}

} // namespace archplay::core

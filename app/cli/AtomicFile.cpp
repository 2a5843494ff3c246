// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace archplay::cli {
namespace {

core::Status lastError() {
    return core::Status::failure(std::strerror(errno));
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

} // namespace

core::Status writeFileAtomically(const std::string& path, std::string_view bytes) {
    namespace fs = std::filesystem;
    if (path.empty()) {
        return core::Status::failure("no file name given");
    }
    const fs::path target(path);
    fs::path directory = target.parent_path();
    if (directory.empty()) {
        directory = ".";
    }
    std::error_code error;
    if (!fs::is_directory(directory, error)) {
        return core::Status::failure("the directory " + directory.string() + " does not exist");
    }
    if (fs::is_directory(target, error)) {
        return core::Status::failure("it is a directory");
    }
    struct stat existing {};
    const bool exists = ::stat(path.c_str(), &existing) == 0;
    mode_t mode = 0;
    if (exists) {
        mode = existing.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }

    std::string pattern = (directory / ("." + target.filename().string() + ".XXXXXX")).string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
        return lastError();
    }
    const std::string temporary(name.data());
    // The failure is read from errno before the clean-up can change it.
    auto removeTemporary = [&](core::Status reason) {
        ::unlink(temporary.c_str());
        return reason;
    };
    auto closeAndRemove = [&](core::Status reason) {
        ::close(fd);
        return removeTemporary(std::move(reason));
    };
    if (!writeAll(fd, bytes) || ::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
        return closeAndRemove(lastError());
    }
    if (::close(fd) != 0 || ::rename(temporary.c_str(), path.c_str()) != 0) {
        return removeTemporary(lastError());
    }
    return {};
}

} // namespace archplay::cli

#include "core/util/input_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/error.h"

namespace partita {

namespace {

std::string kindProblem(mode_t mode) {
    if (S_ISREG(mode)) return {};
    if (S_ISDIR(mode)) return "it is a folder, not a file";
    if (S_ISFIFO(mode)) return "it is a FIFO (named pipe), not a regular file";
    if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device, not a regular file";
    return "it is not a regular file";
}

}  // namespace

std::string notARegularFile(const std::string& path, bool absent_ok) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return absent_ok ? "" : "it does not exist";
        return std::strerror(errno);
    }
    return kindProblem(st.st_mode);
}

void requireRegularFile(const std::string& path) {
    if (const std::string why = notARegularFile(path); !why.empty())
        throw InputError(path, "", "cannot open the file: " + why);
}

InputFile::InputFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) {
        const int error = errno;
        // A FIFO without a writer opens fine with O_NONBLOCK; other failures say what the system said.
        throw InputError(path, "", error == ENOENT ? std::string("cannot open the file")
                                                   : "cannot open the file: " + std::string(std::strerror(error)));
    }
    struct stat st {};
    std::string why = ::fstat(fd_, &st) != 0 ? std::string(std::strerror(errno)) : kindProblem(st.st_mode);
    if (why.empty()) {
        const int flags = ::fcntl(fd_, F_GETFL);
        if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) why = std::strerror(errno);
    }
    if (!why.empty()) {
        ::close(fd_);
        fd_ = -1;
        throw InputError(path, "", "cannot open the file: " + why);
    }
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::string InputFile::readAll() {
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputError(path_, "", std::string("cannot read the file: ") + std::strerror(errno));
        }
        text.append(buffer, static_cast<size_t>(n));
    }
    return text;
}

}  // namespace partita

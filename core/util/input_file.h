#pragma once
// Opening a user's input file without ever blocking (issue 26 item 8): open() on a FIFO waits for a
// writer forever and a device never ends, so a path that is not a regular file is refused by name
// before anything reads it.
#include <string>

namespace partita {

// "" when `path` (symlinks followed) is a regular file, or is absent and `absent_ok`; else why not:
// "it does not exist", "it is a folder, not a file", "it is a FIFO (named pipe), not a regular
// file", ... Never opens the path.
std::string notARegularFile(const std::string& path, bool absent_ok = false);

// Throws InputError(path, "", "cannot open the file: " + why) unless `path` is a regular file.
void requireRegularFile(const std::string& path);

// A regular file opened read-only. The open itself cannot block (O_NONBLOCK, dropped once fstat has
// shown a regular file), so a FIFO or a device swapped in after a check is refused too.
class InputFile {
public:
    explicit InputFile(const std::string& path);  // throws InputError naming the path
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    int fd() const { return fd_; }
    // The whole file (throws InputError on a read error).
    std::string readAll();

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace partita

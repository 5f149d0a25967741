#pragma once
// Errors the engine reports to users. Every message names the source (file or
// object) and the place inside it, so the CLI and GUI can show it verbatim.
#include <stdexcept>
#include <string>

namespace partita {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A problem in an input file: `source` is the file name (or a label such as
// "<string>"), `place` a line:column or a JSON pointer, `what()` the full text.
class InputError : public Error {
public:
    InputError(std::string source, std::string place, const std::string& message)
        : Error(format(source, place, message)), source_(std::move(source)), place_(std::move(place)) {}
    const std::string& source() const { return source_; }
    const std::string& place() const { return place_; }

private:
    static std::string format(const std::string& source, const std::string& place, const std::string& message) {
        std::string text = source;
        if (!place.empty()) text += ": " + place;
        return text + ": " + message;
    }
    std::string source_;
    std::string place_;
};

// Raised when a long computation sees its cancel predicate return true.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

}  // namespace partita

#pragma once
// A layout hint: where the user put an operator in the editor (scene coordinates). Its own header so
// that core/io can read and write hints without the document.

namespace partita::edit {

struct Point {
    double x = 0, y = 0;
    bool operator==(const Point&) const = default;
};

}  // namespace partita::edit

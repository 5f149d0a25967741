#pragma once
// The desktop application's entry point, a library function so tests and the
// thin main() share it.
namespace partita::gui {

int runApplication(int argc, char** argv);

}  // namespace partita::gui

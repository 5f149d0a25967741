#include "app/gui/application.h"

int main(int argc, char** argv) { return partita::gui::runApplication(argc, argv); }

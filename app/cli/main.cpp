#include <iostream>

#include "app/cli/cli.h"

int main(int argc, char** argv) { return partita::cli::run(argc, argv, std::cout, std::cerr); }

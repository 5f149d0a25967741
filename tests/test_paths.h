#pragma once
// Where the tests find the examples, their data and the built programs. The paths are compiled
// into one generated file (test_paths.cpp.in) instead of every test's command line, so that the
// tests' objects are the same in every checkout and a compiler cache serves any clone.
// The macros keep the names the tests always used; each is a `const char*` expression.
const char* partitaTestExamplesDir();
const char* partitaTestDataDir();
const char* partitaTestCliBinary();
const char* partitaTestMpiexec();

#define PARTITA_EXAMPLES_DIR (partitaTestExamplesDir())
#define PARTITA_TEST_DATA (partitaTestDataDir())

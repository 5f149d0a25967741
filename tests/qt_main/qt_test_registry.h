#pragma once
// The Qt test suites are linked into one executable per folder (tests/CMakeLists.txt) so that a
// build compiles and links the Qt test machinery once, not once per suite. This header is
// force-included into every suite: QTEST_MAIN registers the suite's class instead of defining
// main(), and qt_test_main.cpp runs the class named on the command line.
#include <QtTest/QtTest>

#include <functional>
#include <memory>

namespace partita_test {

using QtSuiteFactory = std::function<std::unique_ptr<QObject>()>;

// Called once per suite at static initialisation with the suite's class and source file (the
// suite is run by either name: `MainWindowTest` or `main_window_test`); returns a dummy.
int registerQtSuite(const char* className, const char* sourceFile, QtSuiteFactory make);

}  // namespace partita_test

#undef QTEST_MAIN
#define QTEST_MAIN(TestObject)                                                                  \
    [[maybe_unused]] static const int partitaQtSuiteRegistered = ::partita_test::registerQtSuite( \
        #TestObject, __FILE__, [] { return std::unique_ptr<QObject>(new TestObject); });

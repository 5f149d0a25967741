// main() of a combined Qt test executable: `EXE SUITE [QtTest arguments]` runs one suite as the
// suite's own QTEST_MAIN would (SUITE is its class or its file name, e.g. main_window_test);
// a link named after a suite's file runs that suite; `EXE --list` names them; `EXE` alone runs
// every suite in turn.
#include "qt_test_registry.h"

#include <QApplication>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace partita_test {
namespace {

struct Suite {
    std::string fileName;  // "main_window_test"
    QtSuiteFactory make;
};

std::map<std::string, Suite>& suites() {  // by class name
    static std::map<std::string, Suite> all;
    return all;
}

std::string baseName(const char* path) {
    std::string name = path;
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos) name.erase(0, slash + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos) name.erase(dot);
    return name;
}

const Suite* findSuite(const std::string& name) {
    for (const auto& [className, suite] : suites()) {
        if (className == name || suite.fileName == name) return &suite;
    }
    return nullptr;
}

int runSuite(const Suite& suite, std::vector<char*> args) {
    // Each suite keeps its settings, default database and editor recovery file apart, as when every
    // suite was an executable of its own: ctest runs suites at once, and one suite's recovery file
    // made another's window ask (modally) whether to recover it.
    QCoreApplication::setApplicationName(QString::fromStdString("partita-" + suite.fileName));
    const auto object = suite.make();
    return QTest::qExec(object.get(), static_cast<int>(args.size()), args.data());
}

}  // namespace

int registerQtSuite(const char* className, const char* sourceFile, QtSuiteFactory make) {
    suites().emplace(className, Suite{baseName(sourceFile), std::move(make)});
    return 0;
}

}  // namespace partita_test

int main(int argc, char* argv[]) {
    using namespace partita_test;
    // Run by hand on a machine without a screen, the suites render offscreen as under ctest.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setAttribute(Qt::AA_Use96Dpi, true);

    if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
        for (const auto& [className, suite] : suites()) {
            std::printf("%s %s\n", className.c_str(), suite.fileName.c_str());
        }
        return 0;
    }
    // Started through a link named after a suite: every argument is QtTest's.
    if (const Suite* byLink = findSuite(baseName(argv[0]))) {
        return runSuite(*byLink, std::vector<char*>(argv, argv + argc));
    }
    if (argc > 1 && argv[1][0] != '-') {
        const Suite* suite = findSuite(argv[1]);
        if (suite == nullptr) {
            std::fprintf(stderr, "no Qt test suite named %s (--list names them)\n", argv[1]);
            return 2;
        }
        std::vector<char*> args{argv[0]};  // QtTest sees the arguments after the suite's name
        args.insert(args.end(), argv + 2, argv + argc);
        return runSuite(*suite, std::move(args));
    }
    int failed = 0;
    for (const auto& [className, suite] : suites()) {
        if (runSuite(suite, std::vector<char*>(argv, argv + argc)) != 0) ++failed;
    }
    return failed == 0 ? 0 : 1;
}

#include "app/gui/application.h"

#include <cstdio>

#include <QApplication>

#include "app/gui/main_window.h"

namespace partita::gui {

int runApplication(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Partita");
    QApplication::setApplicationName("Partita");
    QApplication::setApplicationVersion(PARTITA_VERSION);

    Options options;
    QString error;
    if (!parseOptions(QApplication::arguments(), &options, &error)) {
        const bool help = error.startsWith("Usage");
        std::fprintf(help ? stdout : stderr, "%s\n", qPrintable(error));
        return help ? 0 : 2;
    }
    MainWindow window(options);
    window.show();
    if (options.screenshot.isEmpty()) return QApplication::exec();

    // Screenshot mode: finish the first run, render, and exit.
    const bool ok = window.saveScreenshot(options.screenshot, options.view);
    if (!window.lastError().isEmpty()) std::fprintf(stderr, "partita: %s\n", qPrintable(window.lastError()));
    if (!ok) std::fprintf(stderr, "partita: could not write %s\n", qPrintable(options.screenshot));
    return ok && window.lastError().isEmpty() ? 0 : 1;
}

}  // namespace partita::gui

#include "app/gui/application.h"

#include <cstdio>
#include <string>

#include <QApplication>
#include <QTimer>

#include "app/gui/main_window.h"
#include "app/gui/options.h"
#include "app/gui/screenshot.h"

namespace partita::gui {

int runApplication(int argc, char** argv) {
    // --version and --help answer without a display (QApplication would need one).
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--version" || arg == "-v") {
            std::printf("partita %s\n", PARTITA_VERSION);
            return 0;
        }
        if (arg == "--help" || arg == "-h") {
            QCoreApplication core(argc, argv);
            Options options;
            QString text;
            parseOptions(QCoreApplication::arguments(), &options, &text);
            std::printf("%s\n", qPrintable(text));
            return 0;
        }
    }
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
    if (options.screenshot.isEmpty()) {
        window.fitToScreen();  // a 1280x800 default or a saved size on a smaller screen
        window.show();
        QTimer::singleShot(0, &window, [&window] { window.fitToScreen(); });  // now with its title bar
        return QApplication::exec();
    }
    window.show();

    // Screenshot mode: finish the first run, render, and exit.
    const bool ok = saveScreenshot(window, options.screenshot, options.view);
    if (!window.lastError().isEmpty()) std::fprintf(stderr, "partita: %s\n", qPrintable(window.lastError()));
    if (!ok) std::fprintf(stderr, "partita: could not write %s\n", qPrintable(options.screenshot));
    return ok && window.lastError().isEmpty() ? 0 : 1;
}

}  // namespace partita::gui

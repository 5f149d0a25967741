#pragma once
// The window's results database (docs/guide/application.md#when-a-run-is-stored): which file is
// open, whether runs are stored, storing a run once (an identical stored run is re-selected), an
// MPT/L2S evaluation once per settings, renaming and deleting. Views that list runs follow
// changed(); problems come out as error() for the window to report.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/run/run.h"

namespace partita {
class ResultsDb;
struct MethodRun;
namespace store {
struct RunRows;
}
}  // namespace partita

namespace partita::gui {

class RunStore : public QObject {
    Q_OBJECT

public:
    explicit RunStore(QObject* parent = nullptr);
    ~RunStore() override;

    // Opens `path` (creating its folder unless read-only); on failure no database is open and
    // problem() says why ("Runs are not being stored: …"), also sent as error(). Returns problem().
    QString open(const QString& path, bool read_only);
    ResultsDb* db() const { return db_.get(); }
    QString problem() const { return problem_; }
    bool storing() const;  // a database is open and writable

    // `run` stored, or the identical stored run re-selected (`*identical` says which): the copy
    // with its id. Null when nothing is stored (no writable database, or the database refused it:
    // error() says why). `rows`: store::runRows(*run), when a worker built it (else built here, on the
    // GUI thread: docs/contributing/architecture.md#jobs-and-threads).
    RunPtr store(const RunPtr& run, bool* identical = nullptr, const store::RunRows* rows = nullptr);
    // How many runs store() serialised itself, not given their rows (tests: the window's jobs hand them in).
    int serialisedHere() const { return serialised_here_; }
    // An MPT or L2S evaluation, unless the same settings were the last stored or re-opened for its
    // method; false when it was not stored (already there, or refused).
    bool storeMethod(const MethodRun& run, bool* already = nullptr);
    // A re-opened MPT or L2S evaluation: Run again on it stores nothing new.
    void rememberMethod(const MethodRun& run);
    bool remove(const std::vector<std::int64_t>& ids);
    bool rename(std::int64_t id, const QString& name);
    // Another writer (a sweep) added runs to the file: lists read it again.
    void written() { emit changed(); }

signals:
    void changed();                       // runs stored, renamed, deleted, or another file opened
    void stored(std::int64_t id);         // a run stored or re-selected: lists select it
    void error(const QString& message);
    void notice(const QString& message);  // for the status bar: a run re-selected, an evaluation already stored

private:
    bool guard(const std::function<void()>& work);  // runs `work`, its exception becomes error()
    std::unique_ptr<ResultsDb> db_;
    QString problem_;
    int serialised_here_ = 0;
    std::map<std::string, std::string> stored_methods_;  // per method: the settings last stored or re-opened
};

}  // namespace partita::gui

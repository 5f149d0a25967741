#include "app/gui/run_store.h"

#include <optional>

#include <QDir>
#include <QFileInfo>

#include "core/run/method_run.h"
#include "core/store/method_codec.h"
#include "core/store/results_db.h"
#include "core/store/run_rows.h"
#include "widgets/common/qt_text.h"

namespace partita::gui {

RunStore::RunStore(QObject* parent) : QObject(parent) {}
RunStore::~RunStore() = default;

QString RunStore::open(const QString& path, bool read_only) {
    db_.reset();
    problem_.clear();
    stored_methods_.clear();
    try {
        if (!read_only) QDir().mkpath(QFileInfo(path).absolutePath());
        db_ = std::make_unique<ResultsDb>(path.toStdString(), read_only);
    } catch (const std::exception& e) {
        problem_ = tr("Runs are not being stored: %1").arg(q(e.what()));
        emit error(problem_);
    }
    emit changed();
    return problem_;
}

bool RunStore::storing() const { return db_ && !db_->readOnly(); }

bool RunStore::guard(const std::function<void()>& work) {
    try {
        work();
        return true;
    } catch (const std::exception& e) {
        emit error(q(e.what()));
        return false;
    }
}

RunPtr RunStore::store(const RunPtr& run, bool* identical, const store::RunRows* rows) {
    if (!storing() || !run) return nullptr;
    RunPtr result;
    bool same_stored = false;
    guard([&] {
        auto copy = std::make_shared<Run>(*run);
        std::optional<store::RunRows> own;
        if (!rows) {  // serialised once for the look-up and the insert
            own = store::runRows(*run);
            rows = &*own;
            ++serialised_here_;
        }
        const auto same = db_->findIdentical(*run, *rows);
        same_stored = same.has_value();
        copy->id = same ? *same : db_->store(*run, *rows);  // never stored twice
        result = copy;
    });
    if (identical) *identical = same_stored;
    if (result) {
        if (same_stored) emit notice(tr("Identical to stored run %1: selected it").arg(result->id));
        emit changed();
        emit stored(result->id);
    }
    return result;
}

bool RunStore::storeMethod(const MethodRun& run, bool* already) {
    if (already) *already = false;
    if (!storing()) return false;
    std::string key;
    if (!guard([&] { key = store::methodRunKey(run); })) return false;
    if (stored_methods_[run.method] == key) {  // Run again on what is stored: nothing new
        if (already) *already = true;
        emit notice(tr("This evaluation is already stored"));
        return false;
    }
    if (!guard([&] { db_->storeMethod(run); })) return false;
    stored_methods_[run.method] = key;
    emit changed();
    return true;
}

void RunStore::rememberMethod(const MethodRun& run) { stored_methods_[run.method] = store::methodRunKey(run); }

bool RunStore::remove(const std::vector<std::int64_t>& ids) {
    if (!db_) return false;
    const bool ok = guard([&] {
        for (std::int64_t id : ids) db_->remove(id);
    });
    emit changed();  // some may be gone before one failed
    return ok;
}

bool RunStore::rename(std::int64_t id, const QString& name) {
    if (!db_ || name.trimmed().isEmpty()) return false;
    const bool ok = guard([&] { db_->rename(id, name.trimmed().toStdString()); });
    if (ok) emit changed();
    return ok;
}

}  // namespace partita::gui

#include "widgets/simulation/simulation_view.h"

#include <cmath>
#include <utility>
#include <vector>

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "core/run/simulation.h"
#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/qt_text.h"
#include "widgets/simulation/simulation_tables.h"

namespace partita {

namespace {

// A rich-text label laid out once per width and text: the tab's layouts ask a label for its height many
// times while it is shown, and the summary's table took tens of milliseconds of the GUI thread to lay
// out again each time after a run arrived (docs/contributing/architecture.md#jobs-and-threads).
class HeightCachingLabel : public QLabel {
public:
    using QLabel::QLabel;
    void setCachedText(const QString& text) {
        heights_.clear();
        setText(text);
    }
    int heightForWidth(int width) const override {
        for (const auto& [w, h] : heights_)
            if (w == width) return h;
        if (heights_.size() == 8) heights_.clear();
        return heights_.emplace_back(width, QLabel::heightForWidth(width)).second;
    }

protected:
    void changeEvent(QEvent* e) override {
        if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) heights_.clear();
        QLabel::changeEvent(e);
    }

private:
    mutable std::vector<std::pair<int, int>> heights_;
};

void setLabelText(QLabel* label, const QString& text) { static_cast<HeightCachingLabel*>(label)->setCachedText(text); }


QString times(double x) { return std::isfinite(x) && x > 0 ? q(fixed(x, 3)) + QChar(0x00D7) : QStringLiteral("—"); }

// Names the strategy and how many devices it occupies: a baseline that leaves some idle says why.
QString strategyText(const Run& run, const SimulationResult& sim) {
    const int devices = sim.topology().deviceCount();
    const std::int64_t batch = run.inputs ? sim::batchCount(run.inputs->params.batch) : 0;
    const DeviceUse use = deviceUse(sim.spec.source, sim.strategy, batch, devices);
    const QString all = QObject::tr("the %1 devices").arg(q(withCommas(devices)));
    const QString some = QObject::tr("%1 of the %2 devices").arg(q(withCommas(use.used)), q(withCommas(devices)));
    const QString where = use.used < devices ? some : all;
    const QString why = use.reason.empty() ? QString() : QStringLiteral(": ") + q(use.reason).toHtmlEscaped();
    switch (sim.spec.source) {
        case SimSource::DataParallel:
        case SimSource::OneWeirdTrick:
        case SimSource::ModelParallel:
            return QObject::tr("%1 over %2%3").arg(simSourceLabel(sim.spec.source), where, why);
        case SimSource::Grid:
            return QObject::tr("the %1-level grid lowered to SOAP, on %2%3; the Grid tab shows it")
                .arg(run.grid.levels())
                .arg(where, why);
        case SimSource::File:
            return QObject::tr("from %1, on %2").arg(q(sim.spec.strategy_origin).toHtmlEscaped(), where);
        case SimSource::Mcmc: return QObject::tr("the fastest the MCMC search found, on %1").arg(where);
    }
    return {};
}

QString searchText(const SimulationResult& sim) {
    const McmcSummary& m = *sim.mcmc;
    const McmcSettings& s = sim.spec.mcmc;
    QStringList budget;
    if (s.budget_s > 0) budget << q(seconds(s.budget_s));
    if (s.iterations > 0) budget << QObject::tr("%1 iterations").arg(q(withCommas(double(s.iterations))));
    const QString stall = s.stop_on_stall ? QObject::tr("a stall ends a chain")
                          : m.restarts == 1 ? QObject::tr("1 restart after a stall")
                                            : QObject::tr("%1 restarts after a stall").arg(m.restarts);
    return QObject::tr("%1 starts, %2 proposals, %3 % accepted, %4 · seed %5, β %6 per ms, budget %7")
        .arg(m.starts.size())
        .arg(q(withCommas(double(m.iterations))))
        .arg(q(fixed(100 * m.acceptance_rate, 1)))
        .arg(stall)
        .arg(s.seed)
        .arg(q(formatNumber(s.beta)))
        .arg(budget.join(QObject::tr(" or ")));
}

}  // namespace

SimulationView::SimulationView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    stack_ = new QStackedWidget(this);
    outer->addWidget(stack_);

    empty_ = new HeightCachingLabel(
        tr("<p>No simulation to show.</p><p>Choose <b>Simulate</b> or <b>MCMC</b> in the method "
           "list to time a strategy with FlexFlow's execution simulator on a device topology. "
           "The other runs (HyPar, AccPar and the analytic baselines) are not simulated.</p>"),
        stack_);
    empty_->setObjectName("simulation-empty");
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    empty_->setMargin(24);
    stack_->addWidget(empty_);

    auto* page = new QWidget(stack_);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(8, 6, 8, 6);
    summary_ = new HeightCachingLabel(page);
    summary_->setObjectName("simulation-summary");
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wraps to the tab's width instead of widening the window (and squeezing the docks).
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    summary_->setMinimumWidth(240);
    layout->addWidget(summary_);
    starts_title_ = new QLabel(tr("<b>Search starts</b>"), page);
    layout->addWidget(starts_title_);
    starts_ = makeSimTable(page, "simulation-starts", startColumns());
    layout->addWidget(starts_);
    auto* heading = new QHBoxLayout;
    heading->addWidget(new QLabel(tr("<b>Devices, links and collective streams</b>"), page));
    heading->addStretch(1);
    idle_links_ = new QCheckBox(page);
    idle_links_->setObjectName("show-idle-links");
    idle_links_->setToolTip(tr("Also list the links that carried no data (CSV export always has every link)"));
    heading->addWidget(idle_links_);
    layout->addLayout(heading);
    connect(idle_links_, &QCheckBox::toggled, this, [this] {
        if (hasSimulation()) fillResources();
    });
    resources_ = makeSimTable(page, "simulation-resources", resourceColumns());
    layout->addWidget(resources_, 1);
    stack_->addWidget(page);
    setRun(nullptr);
}

void SimulationView::setRun(RunPtr run) {
    run_ = std::move(run);
    texts_.clear();
    tables_.reset();
    if (!hasSimulation()) {
        if (run_)
            setLabelText(empty_, tr("<p><b>%1</b> is not a simulated run.</p><p>Choose <b>Simulate</b> or <b>MCMC</b> "
                                    "in the method list to time a strategy with FlexFlow's execution simulator.</p>")
                                     .arg(q(run_->name).toHtmlEscaped()));
        stack_->setCurrentWidget(empty_);
        resultModelOf(resources_)->setRows({});
        resultModelOf(starts_)->setRows({});
        return;
    }
    tables_ = prepared_ && prepared_->of == run_->simulation ? prepared_ : simulationTables(run_->simulation);
    prepared_.reset();
    showSummary(*run_);
    fillResources();
    fillStarts();
    stack_->setCurrentIndex(1);
}

void SimulationView::showSummary(const Run& run) {
    const SimulationResult& sim = *run.simulation;
    const sim::Topology& topo = sim.topology();
    texts_["makespan"] = q(fixed(sim.makespan_s * 1e3, 3)) + " ms";
    texts_["tasks"] = q(withCommas(static_cast<double>(sim.tasks)));
    texts_["traffic"] = q(fixed(sim.trafficBytes() / 1e9, 3)) + " GB";
    texts_["speedup_vs_dp"] = times(sim.speedupVsDp());
    texts_["speedup_vs_owt"] = times(sim.speedupVsOwt());
    texts_["strategy"] = strategyText(run, sim);
    if (sim.mcmc) texts_["search"] = searchText(sim);
    if (sim.cancelled()) texts_["cancelled"] = tr("Cancelled: the best strategy found before Cancel was pressed.");

    const QString batch = run.inputs ? q(formatNumber(run.inputs->params.batch)) : QStringLiteral("?");
    QString rows;
    auto row = [&rows](const QString& label, const QString& value) {
        rows += QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>").arg(label, value);
    };
    row(tr("Makespan"), tr("<b>%1</b> per %2 step of batch %3 · %4 tasks")
                            .arg(texts_["makespan"], sim.spec.options.training ? tr("training") : tr("inference"),
                                 batch, texts_["tasks"]));
    row(tr("Speed-up"), tr("<b>%1</b> over DP (%2 ms) · <b>%3</b> over OWT (%4 ms), same topology")
                            .arg(texts_["speedup_vs_dp"], q(fixed(sim.dp_makespan_s * 1e3, 3)),
                                 texts_["speedup_vs_owt"], q(fixed(sim.owt_makespan_s * 1e3, 3))));
    row(tr("Traffic"), tr("%1 between devices").arg(texts_["traffic"]));
    row(tr("Topology"), tr("%1: %2 devices, %3 links")
                            .arg(q(topo.name).toHtmlEscaped())
                            .arg(topo.deviceCount())
                            .arg(topo.links.size()));
    row(tr("Strategy"), texts_["strategy"]);
    if (sim.mcmc) row(tr("Search"), texts_["search"]);
    QString html = QStringLiteral("<p style='font-size:large'><b>%1</b></p><table cellspacing='0' cellpadding='1'>%2</table>")
                       .arg(q(run.name).toHtmlEscaped(), rows);
    if (sim.cancelled()) html += QStringLiteral("<p style='color:#b00020'>%1</p>").arg(texts_["cancelled"]);
    setLabelText(summary_, html);
}

void SimulationView::fillResources() {
    idle_links_->setText(tr("Show %1 idle links").arg(tables_->idle_links));
    idle_links_->setVisible(tables_->idle_links > 0);
    fillResourceTable(resources_, *tables_, idle_links_->isChecked());
}

void SimulationView::fillStarts() {
    const bool search = run_->simulation->mcmc.has_value();
    starts_title_->setVisible(search);
    starts_->setVisible(search);
    if (search) fillStartsTable(starts_, *tables_);
    else resultModelOf(starts_)->setRows({});  // a Simulate run exports no starts
}

CsvTable SimulationView::resourcesCsv() const { return csvFromModel(*resultModelOf(resources_)); }

CsvTable SimulationView::startsCsv() const { return csvFromModel(*resultModelOf(starts_)); }

CsvTable SimulationView::trafficCsv() const {
    return partita::trafficCsv(hasSimulation() ? run_->simulation.get() : nullptr);
}

}  // namespace partita

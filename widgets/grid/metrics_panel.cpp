#include "widgets/grid/metrics_panel.h"

#include <cmath>
#include <string>

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/util/format.h"
#include "widgets/common/model_csv.h"
#include "widgets/common/qt_text.h"
#include "widgets/common/result_table_model.h"

namespace partita {

namespace {


// Ratios as in the CLI report: three decimals and a times sign; "—" when undefined.
QString ratio(double x) { return std::isfinite(x) && x > 0 ? q(fixed(x, 3)) + QChar(0x00D7) : QStringLiteral("—"); }

QString gigabytes(double gb) { return q(fixed(gb, 4)) + " GB"; }

// "+123,456 elements (+3.2 %)": the signed change, then relative to the optimum.
QString change(double delta, double reference, const QString& amount) {
    if (delta == 0) return QStringLiteral("no change");
    QString text = (delta > 0 ? "+" : "-") + amount;
    if (reference != 0) {
        const double pct = 100.0 * delta / reference;
        text += QStringLiteral(" (%1%2 %)").arg(pct > 0 ? "+" : "").arg(q(fixed(pct, 1)));
    }
    return text;
}

}  // namespace

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    headline_ = new QLabel(this);
    headline_->setObjectName("metrics-headline");
    headline_->setWordWrap(true);
    headline_->setTextFormat(Qt::RichText);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(headline_);

    // The unit is the CSV's third column; the label says it on screen.
    model_ = new ResultTableModel({{tr("Metric"), "metric", false, {}}, {tr("Value"), "value", true, {}},
                                   {tr("Unit"), "unit", false, {}}},
                                  this);
    table_ = makeResultView(this, "metrics-table", model_);
    table_->setColumnHidden(2, true);
    table_->horizontalHeader()->hide();  // the labels say what each row is
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setShowGrid(false);
    table_->setWordWrap(true);  // long changes wrap in a narrow dock instead of being elided
    layout->addWidget(table_, 1);
    clear();
}

void MetricsPanel::clear() {
    texts_.clear();
    rows_.clear();
    showRows();
    headline_->setText(tr("<i>No run yet: run a search or open a stored run.</i>"));
}

void MetricsPanel::showRows() {
    model_->setRows(rows_);
    table_->clearSpans();
    for (int row = 0; row < model_->rowCount(); ++row)
        if (model_->cell(row, 0).heading) table_->setSpan(row, 0, 1, 2);
}

void MetricsPanel::addHeading(const QString& title) {
    ResultCell heading = textCell(title);
    heading.heading = true;
    rows_.push_back({heading, {}, {}});
}

void MetricsPanel::addRow(const QString& key, const QString& label, const QString& text, double raw,
                          const char* unit) {
    ResultCell name = textCell(QStringLiteral("  ") + label);  // indented under its heading
    name.csv = key.toStdString();
    ResultCell value = numberCell(text, raw);
    value.tooltip = QStringLiteral("%1 = %2 %3").arg(key, q(formatNumber(raw)), unit);
    rows_.push_back({name, value, textCell(unit)});
    texts_.insert(key, text);
}

void MetricsPanel::addRefusal(const QString& key, const QString& label, const QString& reason) {
    const QString text = tr("refused: %1").arg(reason);
    ResultCell name = textCell(QStringLiteral("  ") + label);
    name.csv = key.toStdString();
    ResultCell value = textCell(text);
    value.alignment = QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    value.tooltip = text;
    value.csv = "refused";
    rows_.push_back({name, value, textCell(reason)});
    texts_.insert(key, text);
}

void MetricsPanel::setRun(RunPtr run) {
    run_ = std::move(run);
    clear();
    if (!run_) return;
    if (run_->isAccPar()) addAccParRows(*run_);
    else addHyparRows(*run_);
    showRows();
}

void MetricsPanel::addHyparRows(const Run& r) {
    const Evaluation& e = r.eval();
    const Assessment& a = r.assessment;

    addHeading(tr("Communication"));
    addRow("total_elements", tr("Total (elements)"), q(withCommas(e.total_elements)), e.total_elements, "elements");
    addRow("total_gb", tr("Total (GB)"), gigabytes(e.totalGB()), e.totalGB(), "GB");
    addHeading(tr("Time per step"));
    addRow("step_time_s", tr("Step time"), q(seconds(e.time_step_s)), e.time_step_s, "s");
    addRow("compute_time_s", tr("Compute"), q(seconds(e.time_compute_s)), e.time_compute_s, "s");
    addRow("comm_time_s", tr("Communication"), q(seconds(e.time_comm_s)), e.time_comm_s, "s");
    addHeading(tr("Energy per step"));
    addRow("energy_j", tr("Energy"), q(joules(e.energy_j)), e.energy_j, "J");
    addRow("compute_energy_j", tr("Compute"), q(joules(e.energy_compute_j)), e.energy_compute_j, "J");
    addRow("comm_energy_j", tr("Communication"), q(joules(e.energy_comm_j)), e.energy_comm_j, "J");
    if (r.inputs && r.inputs->params.include_sram_energy)
        addRow("sram_energy_j", tr("SRAM"), q(joules(e.energy_sram_j)), e.energy_sram_j, "J");

    addHeading(tr("Speed-up (T_baseline / T_run)"));
    const std::pair<const char*, const Evaluation*> baselines[] = {{"dp", &a.dp}, {"mp", &a.mp}, {"owt", &a.owt}};
    for (const auto& [name, eval] : baselines)
        addRow(QStringLiteral("perf_vs_%1").arg(name), tr("vs %1").arg(QString(name).toUpper()),
               ratio(a.perfVs(*eval)), a.perfVs(*eval), "x");
    addHeading(tr("Energy efficiency (E_baseline / E_run)"));
    for (const auto& [name, eval] : baselines)
        addRow(QStringLiteral("energy_vs_%1").arg(name), tr("vs %1").arg(QString(name).toUpper()),
               ratio(a.energyVs(*eval)), a.energyVs(*eval), "x");

    QString edited_line, edited_plain;
    if (r.edited()) {
        // Compute time and energy do not depend on the grid, so only the parts that do are listed.
        const Evaluation& ref = r.reference_eval;
        addHeading(tr("Edited vs searched optimum"));
        const double d_elements = e.total_elements - ref.total_elements;
        const QString elements_text = change(d_elements, ref.total_elements,
                                             q(withCommas(d_elements)).remove('-') + " elements");
        addRow("total_elements_vs_optimum", tr("Total (elements)"), elements_text, d_elements, "elements");
        const double d_gb = e.totalGB() - ref.totalGB();
        addRow("total_gb_vs_optimum", tr("Total (GB)"), change(d_gb, ref.totalGB(), gigabytes(std::fabs(d_gb))), d_gb,
               "GB");
        const double d_step = e.time_step_s - ref.time_step_s;
        const QString step_text = change(d_step, ref.time_step_s, q(seconds(std::fabs(d_step))));
        addRow("step_time_s_vs_optimum", tr("Step time"), step_text, d_step, "s");
        const double d_comm = e.time_comm_s - ref.time_comm_s;
        addRow("comm_time_s_vs_optimum", tr("Comm. time"),
               change(d_comm, ref.time_comm_s, q(seconds(std::fabs(d_comm)))), d_comm, "s");
        const double d_energy = e.energy_j - ref.energy_j;
        addRow("energy_j_vs_optimum", tr("Energy"), change(d_energy, ref.energy_j, q(joules(std::fabs(d_energy)))),
               d_energy, "J");
        const double speed = ref.time_step_s / e.time_step_s;
        addRow("perf_vs_optimum", tr("Speed (T_opt/T_run)"), ratio(speed), speed, "x");
        edited_plain = tr("Edited vs searched optimum: %1, step %2").arg(elements_text, step_text);
        // Worse than the optimum in red, better (the search's cost model disagrees) in green.
        edited_line = QStringLiteral("<br><span style='color:%1'>%2</span>")
                          .arg(d_step > 0 || d_elements > 0 ? "#b00020" : "#00703c", edited_plain.toHtmlEscaped());
    }
    if (r.isAccPar()) return;  // AccPar's headline stands
    const QString elements = q(withCommas(e.total_elements)) + " elements";
    const QString second = tr("step %1 · energy %2").arg(q(seconds(e.time_step_s)), q(joules(e.energy_j)));
    headline_->setText(QStringLiteral("<span style='font-size:x-large; font-weight:600'>%1</span> (%2)<br>%3%4")
                           .arg(elements.toHtmlEscaped(), gigabytes(e.totalGB()), second.toHtmlEscaped(), edited_line));
    texts_.insert("headline", elements + " (" + gigabytes(e.totalGB()) + ")\n" + second +
                                  (edited_plain.isEmpty() ? QString() : "\n" + edited_plain));
}

void MetricsPanel::addAccParRows(const Run& r) {
    const AccParResult& x = *r.accpar;
    const PlanTree& plan = x.accpar;
    addHeading(tr("AccPar model (layer-synchronous step time)"));
    addRow("accpar_step_time_s", tr("Step time"), q(seconds(plan.step_time_s)), plan.step_time_s, "s");
    const std::pair<const char*, const PlanTree*> baselines[] = {{"dp", &x.dp}, {"owt", &x.owt}, {"hypar", &x.hypar}};
    // HyPar refuses a network that is not a chain: no ratio to a plan it would not make.
    const auto refused = [&x](const char* name) { return name == std::string("hypar") && !x.hypar_refused.empty(); };
    for (const auto& [name, tree] : baselines) {
        const QString key = QStringLiteral("accpar_speedup_vs_%1").arg(name);
        const QString label = tr("vs %1").arg(schemeLabel(tree->scheme));
        if (refused(name)) addRefusal(key, label, q(x.hypar_refused));
        else addRow(key, label, ratio(x.speedupOver(*tree)), x.speedupOver(*tree), "x");
    }
    for (const auto& [name, tree] : baselines)
        if (!refused(name))
            addRow(QStringLiteral("accpar_%1_step_time_s").arg(name), tr("%1 step").arg(schemeLabel(tree->scheme)),
                   q(seconds(tree->step_time_s)), tree->step_time_s, "s");
    const AccParParams& p = r.inputs->accpar;
    addRow("accpar_ratio_model", tr("Ratio model"), ratioModelName(p.ratio_model),
           p.ratio_model == RatioModel::E ? 0 : 1, "E=0,P=1");
    addRow("accpar_bytes_per_element", tr("Bytes / element"), q(formatNumber(p.bytes_per_element)),
           p.bytes_per_element, "B");

    addHeading(tr("Splits (the grid shows one node per level)"));
    for (int h = 0; h < plan.levels(); ++h) {
        const PlanNode& node = plan.nodes[static_cast<size_t>(plan.grid_nodes[static_cast<size_t>(h)])];
        double comm = 0;
        for (double c : node.comm_s) comm += c;
        addRow(QStringLiteral("accpar_h%1_comm_s").arg(h + 1),
               QStringLiteral("H%1 %2").arg(h + 1).arg(q(node.label)), q(seconds(comm)) + tr(" comm."), comm, "s");
    }

    QString edited_line;
    if (r.edited() && r.reference_step_s > 0) {
        addHeading(tr("Edited vs searched optimum"));
        const double d = plan.step_time_s - r.reference_step_s;
        const QString text = change(d, r.reference_step_s, q(seconds(std::fabs(d))));
        addRow("accpar_step_time_s_vs_optimum", tr("Step time"), text, d, "s");
        edited_line = QStringLiteral("<br><span style='color:%1'>%2</span>")
                          .arg(d > 0 ? "#b00020" : "#00703c", (tr("Edited vs searched optimum: step ") + text).toHtmlEscaped());
    }
    const QString main = tr("AccPar step %1").arg(q(seconds(plan.step_time_s)));
    const QString second = x.hypar_refused.empty()
                               ? tr("%1 DP · %2 OWT · %3 HyPar (AccPar model)")
                                     .arg(ratio(x.speedupVsDp()), ratio(x.speedupVsOwt()), ratio(x.speedupVsHypar()))
                               : tr("%1 DP · %2 OWT (AccPar model) · HyPar refused this network")
                                     .arg(ratio(x.speedupVsDp()), ratio(x.speedupVsOwt()));
    headline_->setText(QStringLiteral("<span style='font-size:x-large; font-weight:600'>%1</span><br>%2%3")
                           .arg(main.toHtmlEscaped(), second.toHtmlEscaped(), edited_line));
    texts_.insert("headline", main + "\n" + second);
    if (r.inputs->hyparApplies()) {
        addHeading(tr("HyPar's model of the same grid"));
        addHyparRows(r);
    }
}

QString MetricsPanel::text(const QString& key) const { return texts_.value(key); }

CsvTable MetricsPanel::csv() const { return csvFromModel(*model_); }

}  // namespace partita

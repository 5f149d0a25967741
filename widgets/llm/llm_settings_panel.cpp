#include "widgets/llm/llm_settings_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/llm/runs.h"
#include "core/topology/topology.h"
#include "widgets/common/qt_text.h"

namespace partita {

namespace {

using llm::FieldError;

QSpinBox* spin(int lo, int hi, int value) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setAccelerated(true);
    return s;
}

// An override knob: 0 (shown as the profile's value) keeps the profile's.
QDoubleSpinBox* rate(double hi, const QString& unit) {
    auto* s = new QDoubleSpinBox;
    s->setRange(0, hi);
    s->setDecimals(1);
    s->setSuffix(" " + unit);
    s->setAccelerated(true);
    return s;
}

// A file line edit with its Browse button, as one row.
QWidget* fileRow(QLineEdit* edit, QPushButton* browse) {
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit, 1);
    row->addWidget(browse);
    return box;
}

// The example the panel starts with: GPT-3 175B on 64 A100 80 GB, the plan `llm search` finds best.
llm::Plan examplePlan() {
    llm::Plan p;
    p.tp = 8;
    p.pp = 4;
    p.dp = 2;
    p.micro_batch = 2;
    p.global_batch = 64;
    p.interleave = 12;
    p.schedule = llm::Schedule::Interleaved;
    p.recompute = llm::Recompute::Selective;
    p.sequence_parallel = true;
    p.zero = 1;
    p.tp_overlap = llm::TpOverlap::Ring;
    p.dp_overlap = true;
    return p;
}

}  // namespace

LlmSettingsPanel::LlmSettingsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName("llm-settings");
    auto* top = new QVBoxLayout(this);
    top->setContentsMargins(4, 4, 4, 4);
    auto* general = new QLabel;
    general->setWordWrap(true);
    general->setStyleSheet("color: #c00000");
    general->hide();
    errors_[""] = general;
    top->addWidget(general);

    const auto section = [&](const QString& title) {
        auto* head = new QLabel("<b>" + title + "</b>");
        top->addWidget(head);
        auto* form = new QFormLayout;
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);  // a wide field goes under its label in the narrow column
        top->addLayout(form);
        return form;
    };

    // Model.
    QFormLayout* model = section(tr("Model"));
    model_ = new QComboBox;
    for (const llm::Transformer& t : llm::modelPresets()) model_->addItem(q(t.name), q(t.name));
    model_->addItem(tr("Custom dimensions"), "custom");
    model_->addItem(tr("ONNX or JSON file"), "file");
    model_->setCurrentIndex(model_->findData("gpt3-175b"));
    auto* model_box = new QWidget;
    auto* model_col = new QVBoxLayout(model_box);
    model_col->setContentsMargins(0, 0, 0, 0);
    model_col->addWidget(model_);
    model_file_ = new QLineEdit;
    model_file_->setPlaceholderText(tr("model.onnx or model.json"));
    browse_ = new QPushButton(tr("Browse…"));
    model_col->addWidget(fileRow(model_file_, browse_));
    custom_ = new QWidget;
    auto* dims = new QFormLayout(custom_);
    dims->setContentsMargins(0, 0, 0, 0);
    layers_ = spin(1, 100000, 24);
    hidden_ = spin(1, 1 << 20, 2048);
    heads_ = spin(1, 100000, 16);
    vocab_ = spin(1, 1 << 24, 51200);
    layers_->setToolTip(tr("Transformer layers"));
    hidden_->setToolTip(tr("Hidden size (the FFN is 4 times it)"));
    heads_->setToolTip(tr("Attention heads (as many key/value heads)"));
    vocab_->setToolTip(tr("Vocabulary size"));
    model_file_->setToolTip(tr("An ONNX export or a partita JSON model file"));
    browse_->setToolTip(tr("Choose the model file"));
    dims->addRow(tr("layers"), layers_);
    dims->addRow(tr("hidden"), hidden_);
    dims->addRow(tr("heads"), heads_);
    dims->addRow(tr("vocabulary"), vocab_);
    model_col->addWidget(custom_);
    addKnob(model, "model", tr("Model"), model_box, tr("The transformer: a built-in preset, custom dimensions, or an ONNX or JSON model file"));
    seq_ = spin(0, 1 << 20, 0);
    seq_->setSpecialValueText(tr("the model's"));
    addKnob(model, "seq", tr("Sequence"), seq_, tr("Sequence length in tokens; the model's own unless set"));
    cost_model_ = new QComboBox;
    cost_model_->addItem(tr("Partita"), static_cast<int>(llm::ModelKind::Partita));
    cost_model_->addItem(tr("Calculon"), static_cast<int>(llm::ModelKind::Calculon));
    addKnob(model, "cost_model", tr("Cost model"), cost_model_,
            tr("Partita's own cost model, or the reimplementation of Calculon's (docs: LLM training plans)"));
    connect(browse_, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Transformer model"), QString(),
                                                       tr("Models (*.onnx *.json);;All files (*)"));
        if (!f.isEmpty()) {
            model_file_->setText(f);
            emit model_file_->editingFinished();
        }
    });

    // Cluster.
    QFormLayout* cluster = section(tr("Cluster"));
    profile_ = new QComboBox;
    for (const std::string& n : llm::profilePresetNames()) profile_->addItem(q(n), q(n));
    profile_->addItem(tr("Profile or Calculon system file"), "file");
    profile_->setCurrentIndex(profile_->findData("a100-sxm4-80gb"));
    auto* profile_box = new QWidget;
    auto* profile_col = new QVBoxLayout(profile_box);
    profile_col->setContentsMargins(0, 0, 0, 0);
    profile_col->addWidget(profile_);
    profile_file_ = new QLineEdit;
    profile_file_->setPlaceholderText(tr("partita-llm-hw/1 file"));
    profile_file_->setToolTip(tr("A partita-llm-hw/1 profile or a Calculon system file"));
    profile_col->addWidget(profile_file_);
    addKnob(cluster, "profile", tr("Profile"), profile_box, tr("The GPU and network profile: a preset, or a partita-llm-hw/1 or Calculon system file"));
    topology_file_ = new QLineEdit;
    topology_file_->setPlaceholderText(tr("none"));
    auto* topology_browse = new QPushButton(tr("…"));
    topology_browse->setMaximumWidth(topology_browse->fontMetrics().horizontalAdvance("…") * 4);
    topology_browse->setToolTip(tr("Choose a topology file"));
    addKnob(cluster, "topology", tr("Topology"), fileRow(topology_file_, topology_browse),
            tr("A Partita topology whose largest island of one link kind is a node (tier 0) and whose links "
               "between islands are the network (tier 1); empty keeps the profile's tiers"));
    topology_file_->setToolTip(topology_file_->parentWidget()->toolTip());
    connect(topology_browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Topology"), QString(),
                                                       tr("Topologies (*.json *.yaml *.yml *.graphml);;All files (*)"));
        if (!f.isEmpty()) setTopology(f);
    });
    // Cluster overrides over the profile and topology; 0 keeps the profile's value (shown as such).
    gpus_per_node_ = spin(0, 1 << 20, 0);
    intra_GBps_ = rate(1e5, tr("GB/s"));
    inter_Gbps_ = rate(1e6, tr("Gb/s"));
    addKnob(cluster, "gpus_per_node", tr("GPUs/node"), gpus_per_node_, tr("GPUs per node (tier 0's size); the profile's unless set"));
    addKnob(cluster, "intra_node_GBps", tr("Intra-node"), intra_GBps_,
            tr("Intra-node bandwidth per GPU, one direction; the profile's unless set"));
    addKnob(cluster, "inter_node_Gbps_per_node", tr("Inter-node"), inter_Gbps_,
            tr("Inter-node bandwidth of a node's NICs together; the profile's unless set"));
    gpus_ = spin(1, 1 << 20, 64);
    addKnob(cluster, "gpus", tr("GPUs"), gpus_, tr("GPUs in the cluster; dp is the GPUs over tp x pp"));
    global_batch_ = spin(1, 1 << 24, 64);
    addKnob(cluster, "global_batch", tr("Global batch"), global_batch_, tr("Sequences per iteration over all replicas"));

    // Plan.
    QFormLayout* plan = section(tr("Plan"));
    tp_ = spin(1, 4096, 8);
    pp_ = spin(1, 4096, 4);
    dp_ = new QLabel;
    micro_batch_ = spin(1, 1 << 20, 2);
    interleave_ = spin(1, 1024, 12);
    schedule_ = new QComboBox;
    for (auto s : {llm::Schedule::Gpipe, llm::Schedule::OneF1B, llm::Schedule::Interleaved})
        schedule_->addItem(llm::scheduleName(s), static_cast<int>(s));
    recompute_ = new QComboBox;
    for (auto r : {llm::Recompute::None, llm::Recompute::Selective, llm::Recompute::Full})
        recompute_->addItem(llm::recomputeName(r), static_cast<int>(r));
    zero_ = new QComboBox;
    for (int z = 0; z <= 3; ++z) zero_->addItem(z == 0 ? tr("off") : tr("stage %1").arg(z), z);
    sp_ = new QCheckBox(tr("sequence parallel"));
    dist_opt_ = new QCheckBox(tr("distributed optimizer"));
    addKnob(plan, "tp", tr("tp"), tp_, tr("Tensor-parallel degree: GPUs sharing each layer"));
    addKnob(plan, "pp", tr("pp"), pp_, tr("Pipeline-parallel degree: stages the layers are split into"));
    addKnob(plan, "dp", tr("dp"), dp_, tr("Data-parallel replicas: the GPUs over tp x pp"));
    addKnob(plan, "micro_batch", tr("Micro-batch"), micro_batch_, tr("Sequences per micro-batch on each replica"));
    addKnob(plan, "interleave", tr("Interleave"), interleave_, tr("Model chunks per stage (the interleaved schedule)"));
    addKnob(plan, "schedule", tr("Schedule"), schedule_, tr("Pipeline schedule: GPipe, 1F1B or interleaved 1F1B"));
    addKnob(plan, "recompute", tr("Recompute"), recompute_, tr("Activation recomputation: none, selective (attention) or full"));
    addKnob(plan, "sequence_parallel", QString(), sp_, tr("Shard norms and dropouts along the sequence across the TP group"));
    addKnob(plan, "zero", tr("ZeRO"), zero_, tr("ZeRO stage: shard optimizer state (1), gradients (2) and parameters (3) across replicas"));
    addKnob(plan, "distributed_optimizer", QString(), dist_opt_, tr("Megatron's distributed optimizer: optimizer state sharded across replicas"));
    // Combo boxes as wide as the column, not as their longest entry: the panel fits beside the views at 1024 px.
    for (QComboBox* c : {model_, cost_model_, profile_, schedule_, recompute_, zero_}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(8);
    }
    dp_->setWordWrap(true);
    search_ = new QPushButton(tr("Search the best plan"));
    search_->setObjectName("llm-search");
    search_->setToolTip(tr("Every plan of these GPUs and global batch, fastest that fits first (Run ▸ Search)"));
    top->addWidget(search_);
    top->addStretch(1);
    connect(search_, &QPushButton::clicked, this, &LlmSettingsPanel::searchRequested);

    const auto edited = [this] {
        updateDerived();
        if (!loading_) emit changed();
    };
    connect(model_, &QComboBox::currentIndexChanged, this, [this, edited] {
        modelChoiceChanged();
        edited();
    });
    const auto cluster_edited = [this, edited] {
        showProfileValues();
        edited();
    };
    connect(profile_, &QComboBox::currentIndexChanged, this, [this, cluster_edited] {
        profile_file_->setVisible(profile_->currentData().toString() == "file");
        cluster_edited();
    });
    connect(model_file_, &QLineEdit::editingFinished, this, edited);
    for (QLineEdit* e : {profile_file_, topology_file_}) connect(e, &QLineEdit::editingFinished, this, cluster_edited);
    for (QSpinBox* s : {layers_, hidden_, heads_, vocab_, seq_, gpus_, global_batch_, tp_, pp_, micro_batch_, interleave_,
                        gpus_per_node_})
        connect(s, &QSpinBox::valueChanged, this, edited);
    for (QDoubleSpinBox* s : {intra_GBps_, inter_Gbps_}) connect(s, &QDoubleSpinBox::valueChanged, this, edited);
    for (QComboBox* c : {cost_model_, schedule_, zero_}) connect(c, &QComboBox::currentIndexChanged, this, edited);
    for (QCheckBox* c : {dist_opt_}) connect(c, &QCheckBox::toggled, this, edited);
    // A searched plan may fix the LN re-gather; it follows SP and recompute again once they change.
    const auto regather = [this, edited] {
        if (!loading_) base_.ag_redo.reset();
        edited();
    };
    connect(recompute_, &QComboBox::currentIndexChanged, this, regather);
    connect(sp_, &QCheckBox::toggled, this, regather);

    setPlan(examplePlan());
    modelChoiceChanged();
    profile_file_->hide();
    showProfileValues();
    updateDerived();
}

void LlmSettingsPanel::addKnob(QFormLayout* form, const QString& key, const QString& label, QWidget* field,
                               const QString& tip) {
    field->setToolTip(tip);
    // A box of controls (the model's, the profile's): its first control says the same.
    if (auto* combo = field->findChild<QComboBox*>(); combo && combo->toolTip().isEmpty()) combo->setToolTip(tip);
    auto* box = new QWidget;
    auto* col = new QVBoxLayout(box);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(1);
    col->addWidget(field);
    auto* error = new QLabel;
    error->setObjectName("error-" + key);
    error->setWordWrap(true);
    error->setStyleSheet("color: #c00000");
    error->hide();
    col->addWidget(error);
    field->setObjectName("llm-" + key);
    errors_[key] = error;
    forms_[key] = form;
    if (label.isEmpty()) form->addRow(box);
    else form->addRow(label, box);
}

void LlmSettingsPanel::modelChoiceChanged() {
    const QString kind = model_->currentData().toString();
    custom_->setVisible(kind == "custom");
    model_file_->parentWidget()->setVisible(kind == "file");  // the file's row
}

void LlmSettingsPanel::updateDerived() {
    const std::int64_t group = static_cast<std::int64_t>(tp_->value()) * pp_->value() * base_.cp;
    const std::int64_t gpus = gpus_->value();
    dp_->setText(gpus % group == 0 ? tr("%1  (GPUs / (tp × pp))").arg(gpus / group)
                                   : tr("—  (%1 GPUs is not a multiple of tp × pp = %2)").arg(gpus).arg(group));
}

llm::Transformer LlmSettingsPanel::modelFromKnobs() const {
    const QString kind = model_->currentData().toString();
    const std::int64_t seq = seq_->value();
    llm::Transformer m;
    if (kind == "custom") {
        // The knobs' dimensions over the model they were set from (a stored or measured run's), else GPT's.
        m = custom_base_.value_or(llm::familyDefaults(llm::Family::Gpt));
        const llm::Transformer base = m;
        m.name = "custom";
        m.layers = layers_->value();
        m.hidden = hidden_->value();
        m.heads = heads_->value();
        const bool grouped = custom_base_ && base.kv_heads != base.heads && m.heads % base.kv_heads == 0;
        m.kv_heads = grouped ? base.kv_heads : m.heads;
        m.ffn = custom_base_ && m.hidden == base.hidden ? base.ffn : 4 * m.hidden;
        m.vocab = vocab_->value();
        m.seq = seq > 0 ? seq : custom_base_ ? base.seq : 2048;
        llm::validate(m);
        return m;
    }
    try {
        if (kind == "file") {
            if (model_file_->text().isEmpty()) throw FieldError("model", "choose an ONNX or JSON model file");
            m = llm::loadTransformer(model_file_->text().toStdString(), seq);
        } else {
            m = llm::modelPreset(kind.toStdString());
        }
    } catch (const FieldError&) {
        throw;
    } catch (const std::exception& e) {
        throw FieldError("model", e.what());
    }
    if (seq > 0) m.seq = seq;
    return m;
}

LlmSettings LlmSettingsPanel::settings() const {
    LlmSettings s;
    s.model = modelFromKnobs();
    const QString kind = model_->currentData().toString();
    s.model_name = kind == "file" ? model_file_->text().toStdString() : kind == "custom" ? "custom" : kind.toStdString();
    s.profile_name = profileName();
    s.profile = profileFromKnobs(s.profile_name);
    s.kind = static_cast<llm::ModelKind>(cost_model_->currentData().toInt());
    llm::Plan p = base_;
    p.tp = tp_->value();
    p.pp = pp_->value();
    const std::int64_t group = p.tp * p.pp * p.cp, gpus = gpus_->value();
    if (gpus % group != 0)
        throw FieldError("gpus", std::to_string(gpus) + " GPUs is not a multiple of tp x pp = " + std::to_string(group));
    p.dp = gpus / group;
    p.micro_batch = micro_batch_->value();
    p.global_batch = global_batch_->value();
    p.interleave = interleave_->value();
    p.schedule = static_cast<llm::Schedule>(schedule_->currentData().toInt());
    p.recompute = static_cast<llm::Recompute>(recompute_->currentData().toInt());
    p.sequence_parallel = sp_->isChecked();
    p.zero = zero_->currentData().toInt();
    p.distributed_optimizer = dist_opt_->isChecked();
    s.plan = p;
    return s;
}

llm::Profile LlmSettingsPanel::baseProfile(const std::string& profile_name) const {
    try {
        if (profile_name.empty()) throw FieldError("profile", "choose a profile file");
        return profile_base_ && profile_name == profile_base_name_ ? *profile_base_ : llm::loadProfile(profile_name);
    } catch (const FieldError&) {
        throw;
    } catch (const std::exception& e) {
        throw FieldError("profile", e.what());
    }
}

std::string LlmSettingsPanel::profileName() const {
    const bool file = profile_->currentData().toString() == "file";
    return file ? profile_file_->text().toStdString() : profile_->currentData().toString().toStdString();
}

// The profile with the topology's tiers, kept until a cluster knob changes: a topology file is read
// once, not at every edit of a plan knob.
const llm::Profile& LlmSettingsPanel::clusterProfile(const std::string& profile_name) const {
    const std::string topology = topology_file_->text().trimmed().toStdString();
    const std::string key = profile_name + '\n' + topology;
    if (cluster_cache_ && cluster_cache_->first == key) return cluster_cache_->second;
    llm::Profile profile = baseProfile(profile_name);
    if (!topology.empty()) {
        try {
            profile = llm::profileFromTopology(profile, sim::loadTopology(topology));
        } catch (const std::exception& e) {
            throw FieldError("topology", e.what());
        }
    }
    cluster_cache_.emplace(key, std::move(profile));
    return cluster_cache_->second;
}

// The profile, then the topology's tiers, then the overrides, as `llm evaluate` applies them
// (docs/methods/llm.md#what-is-modelled).
llm::Profile LlmSettingsPanel::profileFromKnobs(const std::string& profile_name) const {
    llm::ClusterOverrides o;
    if (gpus_per_node_->value() > 0) o.gpus_per_node = gpus_per_node_->value();
    if (intra_GBps_->value() > 0) o.intra_node_GBps = intra_GBps_->value();
    if (inter_Gbps_->value() > 0) o.inter_node_Gbps_per_node = inter_Gbps_->value();
    return llm::applyOverrides(clusterProfile(profile_name), o);
}

void LlmSettingsPanel::showProfileValues() {
    cluster_cache_.reset();  // a cluster knob changed: read the profile and topology again
    const QString unset = tr("the profile's");
    QString per_node = unset, intra = unset, inter = unset;
    try {
        const llm::Profile& p = clusterProfile(profileName());
        if (!p.tiers.empty()) {
            per_node = tr("profile: %1").arg(p.tiers[0].size);
            intra = tr("profile: %1 GB/s").arg(p.tiers[0].bandwidth_Bps / 1e9, 0, 'g', 4);
        }
        if (p.tiers.size() >= 2)
            inter = tr("profile: %1 Gb/s").arg(p.tiers[1].bandwidth_Bps * 8 * static_cast<double>(p.tiers[0].size) / 1e9, 0, 'g', 4);
    } catch (const std::exception&) {
        // An unreadable profile or topology: its error shows under its knob at the next evaluation.
    }
    gpus_per_node_->setSpecialValueText(per_node);
    intra_GBps_->setSpecialValueText(intra);
    inter_Gbps_->setSpecialValueText(inter);
}

void LlmSettingsPanel::setSettings(const LlmSettings& s) {
    loading_ = true;
    // The stored profile is already resolved: no topology or override on top of it.
    topology_file_->clear();
    gpus_per_node_->setValue(0);
    intra_GBps_->setValue(0);
    inter_Gbps_->setValue(0);
    cost_model_->setCurrentIndex(cost_model_->findData(static_cast<int>(s.kind)));
    const int preset = model_->findData(q(s.model_name));
    if (preset >= 0 && s.model_name != "custom" && s.model_name != "file") {
        model_->setCurrentIndex(preset);
        seq_->setValue(s.model.seq == llm::modelPreset(s.model_name).seq ? 0 : static_cast<int>(s.model.seq));
    } else if (s.model_name == "custom") {
        custom_base_ = s.model;
        model_->setCurrentIndex(model_->findData("custom"));
        layers_->setValue(static_cast<int>(s.model.layers));
        hidden_->setValue(static_cast<int>(s.model.hidden));
        heads_->setValue(static_cast<int>(s.model.heads));
        vocab_->setValue(static_cast<int>(s.model.vocab));
        seq_->setValue(static_cast<int>(s.model.seq));
    } else {
        model_->setCurrentIndex(model_->findData("file"));
        model_file_->setText(q(s.model_name));
        seq_->setValue(static_cast<int>(s.model.seq));
    }
    loading_ = false;
    profile_base_ = s.profile;
    profile_base_name_ = s.profile_name;
    showProfileValues();  // the stored profile replaces what was read
    setProfile(q(s.profile_name));
    setPlan(s.plan);
}

// A preset's entry in `combo`, else "file" with the path in `file`.
void LlmSettingsPanel::choose(QComboBox* combo, QLineEdit* file, const QString& preset_or_path) {
    const int i = combo->findData(preset_or_path);
    if (i >= 0) return combo->setCurrentIndex(i);
    file->setText(preset_or_path);
    combo->setCurrentIndex(combo->findData("file"));
    if (!loading_) emit changed();  // the file's text changed even when the entry did not
}

void LlmSettingsPanel::setModel(const QString& preset_or_path) { choose(model_, model_file_, preset_or_path); }

void LlmSettingsPanel::setProfile(const QString& preset_or_path) { choose(profile_, profile_file_, preset_or_path); }

void LlmSettingsPanel::setTopology(const QString& path) {
    topology_file_->setText(path);
    emit topology_file_->editingFinished();
}

void LlmSettingsPanel::setOverrides(std::int64_t gpus_per_node, double intra_node_GBps, double inter_node_Gbps_per_node) {
    loading_ = true;
    gpus_per_node_->setValue(static_cast<int>(gpus_per_node));
    intra_GBps_->setValue(intra_node_GBps);
    inter_Gbps_->setValue(inter_node_Gbps_per_node);
    loading_ = false;
    emit changed();
}

void LlmSettingsPanel::setCostModel(llm::ModelKind kind) { cost_model_->setCurrentIndex(cost_model_->findData(static_cast<int>(kind))); }

void LlmSettingsPanel::setGpus(std::int64_t gpus) { gpus_->setValue(static_cast<int>(gpus)); }

void LlmSettingsPanel::setGlobalBatch(std::int64_t batch) { global_batch_->setValue(static_cast<int>(batch)); }

void LlmSettingsPanel::setPlan(const llm::Plan& plan) {
    loading_ = true;
    base_ = plan;
    tp_->setValue(static_cast<int>(plan.tp));
    pp_->setValue(static_cast<int>(plan.pp));
    gpus_->setValue(static_cast<int>(plan.tp * plan.pp * plan.dp * plan.cp));
    micro_batch_->setValue(static_cast<int>(plan.micro_batch));
    global_batch_->setValue(static_cast<int>(plan.global_batch));
    interleave_->setValue(static_cast<int>(plan.interleave));
    schedule_->setCurrentIndex(schedule_->findData(static_cast<int>(plan.schedule)));
    recompute_->setCurrentIndex(recompute_->findData(static_cast<int>(plan.recompute)));
    zero_->setCurrentIndex(zero_->findData(plan.zero));
    sp_->setChecked(plan.sequence_parallel);
    dist_opt_->setChecked(plan.distributed_optimizer);
    loading_ = false;
    updateDerived();
    emit changed();
}

QString LlmSettingsPanel::knobOf(const std::string& field) {
    const QString f = q(field);
    if (f.startsWith("model")) return "model";
    if (f == "cluster.gpus" || f == "cp") return "gpus";
    for (const char* knob : {"gpus_per_node", "intra_node_GBps", "inter_node_Gbps_per_node"})
        if (f == QString("cluster.") + knob) return knob;
    if (f == "cluster.inter_node_Gbps_per_gpu") return "inter_node_Gbps_per_node";
    if (f.startsWith("cluster")) return "profile";
    if (f == "ag_redo") return "sequence_parallel";
    if (f == "dp_overlap") return "zero";
    if (f == "tp_overlap") return "tp";
    return f;
}

void LlmSettingsPanel::showError(const std::string& field, const QString& message) {
    clearErrors();
    const auto it = errors_.find(knobOf(field));
    QLabel* label = it != errors_.end() ? it->second : errors_[""];
    label->setText(message);
    label->show();
}

void LlmSettingsPanel::clearErrors() {
    for (auto& [key, label] : errors_) {
        label->clear();
        label->hide();
    }
}

QString LlmSettingsPanel::errorAt(const QString& knob) const {
    const auto it = errors_.find(knob);
    return it == errors_.end() || it->second->isHidden() ? QString() : it->second->text();
}

void LlmSettingsPanel::setSearching(bool searching) {
    search_->setEnabled(!searching);
    search_->setText(searching ? tr("Searching…") : tr("Search the best plan"));
}

}  // namespace partita

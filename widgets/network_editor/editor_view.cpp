// EditorView: the widgets, and each edit built as one patch and pushed as one command.
#include "widgets/network_editor/editor_view.h"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/edit/templates.h"
#include "widgets/common/qt_text.h"
#include "widgets/network_editor/edit_command.h"
#include "widgets/network_editor/editor_canvas.h"
#include "widgets/network_editor/node_clipboard.h"
#include "widgets/network_editor/op_fields.h"
#include "widgets/network_editor/properties_panel.h"

namespace partita {

namespace {

constexpr double kBelow = 56;  // points between a node and one added below it

std::optional<OpType> opTypeOf(const QString& key) {
    for (OpType t : allOpTypes())
        if (key == QLatin1String(opTypeName(t))) return t;
    return std::nullopt;
}

// Whether an operator of this kind reads `n` inputs.
bool takes(OpType type, size_t n) {
    switch (type) {
    case OpType::Add:
    case OpType::Concat:
    case OpType::Elementwise: return n >= 1;
    case OpType::MatMul: return n == 1 || n == 2;
    default: return n == 1;
    }
}

qint64 fieldKey(edit::NodeId id, const QString& key) { return (id << 20) ^ static_cast<qint64>(qHash(key)); }

}  // namespace

EditorView::EditorView(QWidget* parent) : QWidget(parent) {
    setObjectName("editor-view");
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName("editor-split");
    split->setChildrenCollapsible(false);
    outer->addWidget(split);

    palette_ = new EditorPalette(split);
    palette_->setMinimumWidth(130);
    split->addWidget(palette_);

    auto* centre = new QWidget(split);
    auto* column = new QVBoxLayout(centre);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    auto* tools = new QHBoxLayout;
    tools->setSpacing(2);
    QToolButton* layout = tool("editor-layout", tr("Auto layout"),
                               tr("Lay the whole graph out again with Graphviz dot (Ctrl+L); dragged positions are "
                                  "forgotten (undoable)"));
    QToolButton* fit = tool("editor-fit", tr("Fit"), tr("Show the whole graph (0 or F)"));
    QToolButton* out = tool("editor-zoom-out", tr("−"), tr("Zoom out (−, or the mouse wheel)"));
    QToolButton* in = tool("editor-zoom-in", tr("+"), tr("Zoom in (+, or the mouse wheel)"));
    QToolButton* del = tool("editor-delete", tr("Delete"), tr("Delete the selected operators or connection (Del)"));
    QToolButton* dup = tool("editor-duplicate", tr("Duplicate"),
                            tr("Copy the selected operators beside them, with their connections (Ctrl+D)"));
    QToolButton* repeat = tool("editor-repeat", tr("Repeat"),
                               tr("Chain copies of the selected block after it (one input, one output), as many "
                                  "as the box beside says"));
    repeats_ = new QSpinBox(centre);
    repeats_->setObjectName("editor-repeats");
    repeats_->setRange(1, 999);
    repeats_->setValue(1);
    repeats_->setPrefix(QStringLiteral("×"));
    repeats_->setToolTip(tr("How many copies Repeat adds after the selected block"));
    for (QToolButton* b : {layout, fit, out, in, del, dup, repeat}) tools->addWidget(b);
    tools->addWidget(repeats_);
    status_ = new QLabel(centre);
    status_->setObjectName("editor-status");
    status_->setStyleSheet("color: #555");
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
    tools->addSpacing(6);
    tools->addWidget(status_, 1);
    column->addLayout(tools);

    auto* vsplit = new QSplitter(Qt::Vertical, centre);
    vsplit->setChildrenCollapsible(false);
    canvas_ = new EditorCanvas(vsplit);
    vsplit->addWidget(canvas_);
    auto* problems_box = new QWidget(vsplit);
    auto* problems_column = new QVBoxLayout(problems_box);
    problems_column->setContentsMargins(0, 2, 0, 0);
    problems_column->setSpacing(2);
    problems_title_ = new QLabel(problems_box);
    problems_title_->setObjectName("editor-problems-title");
    problems_ = new QListWidget(problems_box);
    problems_->setObjectName("editor-problems");
    problems_->setToolTip(tr("Every operator whose shape cannot be derived, and why; click one to select it"));
    problems_->setMinimumHeight(40);
    const auto note = [problems_box](const char* name, const char* colour) {
        auto* label = new QLabel(problems_box);
        label->setObjectName(name);
        label->setWordWrap(true);
        label->setStyleSheet(QStringLiteral("color: %1").arg(colour));
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // wraps; never widens the window
        label->hide();
        return label;
    };
    analysis_ = note("editor-analysis", "#8a4b00");
    analysis_->setTextFormat(Qt::RichText);
    analysis_->setToolTip(tr("The method chosen in the toolbar cannot analyse this network as it stands"));
    connect(analysis_, &QLabel::linkActivated, this, &EditorView::linkActivated);
    refusal_ = note("editor-refusal", "#b00020");
    refusal_->setTextFormat(Qt::PlainText);
    refusal_->setToolTip(tr("The last edit was refused, and why; the next edit that succeeds clears it"));
    problems_column->addWidget(problems_title_);
    problems_column->addWidget(analysis_);
    problems_column->addWidget(refusal_);
    problems_column->addWidget(problems_, 1);
    vsplit->addWidget(problems_box);
    vsplit->setStretchFactor(0, 4);
    vsplit->setStretchFactor(1, 1);
    vsplit->setSizes({400, 90});
    column->addWidget(vsplit, 1);
    split->addWidget(centre);

    auto* scroll = new QScrollArea(split);
    scroll->setObjectName("editor-properties-scroll");
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    properties_ = new PropertiesPanel(scroll);
    scroll->setWidget(properties_);
    scroll->setMinimumWidth(190);
    split->addWidget(scroll);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 0);
    split->setSizes({175, 600, 230});

    // Shortcuts while the editor has focus (a line edit's own Ctrl+C and Ctrl+V come first).
    const auto shortcut = [this](const QString& name, const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
    };
    shortcut("editor-copy", tr("Editor: copy"), QKeySequence::Copy, &EditorView::copySelection);
    shortcut("editor-paste", tr("Editor: paste"), QKeySequence::Paste, &EditorView::paste);
    shortcut("editor-duplicate-action", tr("Editor: duplicate"), QKeySequence(Qt::CTRL | Qt::Key_D),
             &EditorView::duplicateSelection);
    shortcut("editor-rename", tr("Editor: rename"), QKeySequence(Qt::Key_F2), &EditorView::renameCurrent);
    shortcut("editor-layout-action", tr("Editor: auto layout"), QKeySequence(Qt::CTRL | Qt::Key_L),
             &EditorView::autoLayout);

    connect(layout, &QToolButton::clicked, this, &EditorView::autoLayout);
    connect(fit, &QToolButton::clicked, canvas_, &EditorCanvas::fit);
    connect(out, &QToolButton::clicked, canvas_, &EditorCanvas::zoomOut);
    connect(in, &QToolButton::clicked, canvas_, &EditorCanvas::zoomIn);
    connect(del, &QToolButton::clicked, this, [this] {
        if (const auto edge = canvas_->selectedEdge()) push(edit::disconnect(doc_, edge->first, edge->second), tr("Disconnect"));
        else deleteSelection();
    });
    connect(dup, &QToolButton::clicked, this, &EditorView::duplicateSelection);
    connect(repeat, &QToolButton::clicked, this, [this] { repeatSelection(repeats_->value()); });
    connect(palette_, &EditorPalette::chosen, this, [this](const QString& key) { add(key); });
    connect(palette_, &EditorPalette::picked, this, [this](const QString& key) {
        if (key.startsWith("template:") && properties_->shownTemplate() != key) showTemplate(key);
    });
    connect(properties_, &PropertiesPanel::templateEdited, this, [this](const QString& key, const edit::TemplateParams& p) {
        for (size_t i = 0; i < templates_.size(); ++i)
            if ("template:" + templates_[i].entry.key == key) template_params_[i] = p;
    });
    connect(canvas_, &EditorCanvas::dropRequested, this,
            [this](const QString& key, QPointF at, std::optional<NodeId> onto) { add(key, at, onto); });
    connect(canvas_, &EditorCanvas::moveRequested, this, [this](const std::map<NodeId, edit::Point>& to, int drag) {
        push(edit::moveNodes(doc_, to), tr("Move"), EditCommand::kMove, drag);
    });
    connect(canvas_, &EditorCanvas::connectRequested, this, [this](NodeId from, NodeId to) {
        push(edit::connect(doc_, from, to), tr("Connect"));
    });
    connect(canvas_, &EditorCanvas::disconnectRequested, this, [this](NodeId from, NodeId to) {
        push(edit::disconnect(doc_, from, to), tr("Disconnect"));
    });
    connect(canvas_, &EditorCanvas::deleteRequested, this, &EditorView::deleteSelection);
    connect(canvas_, &EditorCanvas::activated, this, [this](NodeId) { renameCurrent(); });
    connect(canvas_, &EditorCanvas::selectionChanged, this, &EditorView::selectionChanged);
    connect(problems_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        canvas_->focusNode(item->data(Qt::UserRole).toLongLong());
    });
    connect(properties_, &PropertiesPanel::operatorEdited, this, [this](NodeId id, const Operator& op, const QString& key) {
        push(edit::setOperator(doc_, id, op), tr("Edit %1").arg(q(op.name)), EditCommand::kOperator, fieldKey(id, key));
    });
    connect(properties_, &PropertiesPanel::headerEdited, this, [this](const edit::Header& h, const QString& key) {
        push(edit::setHeader(doc_, h), tr("Edit the network"), EditCommand::kHeader, fieldKey(0, key));
    });
    canvas_->setDocument(&doc_);
    documentEdited();
}

QToolButton* EditorView::tool(const QString& name, const QString& text, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setObjectName(name);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

void EditorView::setDocument(edit::Document doc, bool dirty) {
    stack_.clear();
    doc_ = std::move(doc);
    canvas_->setDocument(&doc_);
    if (dirty) stack_.resetClean();
    documentEdited();
}

void EditorView::setTemplates(std::vector<Template> templates) {
    templates_ = std::move(templates);
    template_params_.clear();
    std::vector<PaletteEntry> entries;
    for (const Template& t : templates_) {
        entries.push_back(t.entry);
        template_params_.push_back(t.params);
    }
    palette_->setTemplates(entries);
}

const edit::TemplateParams* EditorView::templateParams(const QString& key) const {
    for (size_t i = 0; i < templates_.size(); ++i)
        if ("template:" + templates_[i].entry.key == key) return &template_params_[i];
    return nullptr;
}

void EditorView::showTemplate(const QString& key) {
    for (size_t i = 0; i < templates_.size(); ++i)
        if ("template:" + templates_[i].entry.key == key)
            properties_->showTemplate(key, templates_[i].entry.label, template_params_[i], templates_[i].params);
}

edit::Patch EditorView::applyToDocument(const edit::Patch& patch) {
    edit::Patch inverse = doc_.apply(patch);
    documentEdited();
    return inverse;
}

bool EditorView::push(const edit::Patch& patch, const QString& text, int merge, qint64 key) {
    if (patch.empty()) return false;
    edit::Patch inverse;
    try {
        inverse = doc_.apply(patch);
    } catch (const std::exception& e) {
        refuse(tr("%1 refused: %2").arg(text, q(e.what())));
        return false;
    }
    stack_.push(new EditCommand([this](const edit::Patch& p) { return applyToDocument(p); }, patch, inverse, text,
                                merge, key));
    documentEdited();
    return true;
}

void EditorView::refuse(const QString& text) {
    refusal_->setText(text);
    refusal_->show();
    emit message(text);
}

QString EditorView::refusal() const { return refusal_->isHidden() ? QString() : refusal_->text(); }

void EditorView::setAnalysisProblem(const QString& html) {
    analysis_->setText(html);
    analysis_->setVisible(!html.isEmpty());
}

QString EditorView::analysisProblem() const { return analysis_->isHidden() ? QString() : analysis_->text(); }

void EditorView::documentEdited() {
    refusal_->hide();  // an edit went through: what was refused before is history
    canvas_->documentChanged();
    fillProblems();
    selectionChanged();
    emit documentChanged();
}

void EditorView::fillProblems() {
    problems_->clear();
    for (const edit::Problem& p : doc_.problems()) {
        const edit::Node* n = doc_.node(p.node);
        const QString text = QStringLiteral("%1: %2").arg(n ? q(n->op.name) : tr("input"), q(p.reason));
        auto* item = new QListWidgetItem(text, problems_);
        item->setData(Qt::UserRole, static_cast<qlonglong>(p.node));
        item->setToolTip(text);
        item->setForeground(QColor(176, 0, 32));
    }
    const size_t count = doc_.problems().size();
    problems_title_->setText(count == 0 ? tr("Problems: none") : tr("Problems: %1").arg(count));
}

void EditorView::selectionChanged() {
    const auto current = canvas_->current();
    if (current && *current != edit::kNetworkInput) {
        properties_->showNode(*current, doc_.node(*current)->op, [this, id = *current](const std::string& name) {
            const auto other = doc_.findByName(name);
            return other && *other != id;
        });
    } else if (canvas_->selection().size() > 1) {
        properties_->showNote(tr("<b>%1 operators selected</b><br>Delete (Del), duplicate (Ctrl+D) or copy (Ctrl+C) "
                                 "them; select one to edit it.")
                                  .arg(canvas_->selection().size()));
    } else {
        properties_->showHeader(doc_.header());
    }
}

void EditorView::setStatus(const QString& text) { status_->setText(text); }

std::map<edit::NodeId, edit::Point> EditorView::shownPositions() const {
    std::map<NodeId, edit::Point> out;
    for (NodeId id : doc_.ids()) {
        const QPointF p = canvas_->position(id);
        out[id] = {p.x(), p.y()};
    }
    return out;
}

bool EditorView::add(const QString& key, std::optional<QPointF> at, std::optional<NodeId> onto) {
    // What the new block reads: the node it was dropped onto, else (a double-click) the selection
    // when the kind takes that many inputs, else the input of an empty graph.
    std::vector<NodeId> inputs;
    const std::set<NodeId>& sel = canvas_->selection();
    const std::optional<OpType> type = opTypeOf(key);
    const bool is_template = key.startsWith("template:");
    if (!type && !is_template) return false;
    if (onto) inputs = {*onto};
    else if (!at && !sel.empty() && (is_template ? sel.size() == 1 : takes(*type, sel.size())))
        inputs.assign(sel.begin(), sel.end());
    else if (doc_.ids().empty()) inputs = {edit::kNetworkInput};

    // Where: below the node it was dropped onto or the inputs, else at the drop, else mid-view.
    if (onto) at.reset();
    QPointF where = at.value_or(canvas_->viewCentre());
    if (!at && !inputs.empty()) {
        double x = 0, bottom = -1e300;
        for (NodeId id : inputs) {
            x += canvas_->position(id).x();
            bottom = std::max(bottom, canvas_->nodeBox(id).bottom());
        }
        where = QPointF(x / static_cast<double>(inputs.size()), bottom + kBelow);
    }

    edit::Patch patch;
    QString text;
    if (is_template) {
        const auto t = std::find_if(templates_.begin(), templates_.end(),
                                    [&](const Template& x) { return "template:" + x.entry.key == key; });
        if (t == templates_.end()) return false;
        // A parameter being typed that is not valid yet: the insertion waits for it.
        if (properties_->shownTemplate() == key && !properties_->problem().isEmpty()) {
            refuse(tr("%1: %2").arg(t->entry.label, properties_->problem()));
            return false;
        }
        const edit::TemplateParams& params = *templateParams(key);
        try {
            patch = edit::insertTemplate(doc_, params,
                                         edit::Placement{inputs.empty() ? edit::kNetworkInput : inputs.front(), false, std::nullopt});
        } catch (const std::exception& e) {
            refuse(tr("%1: %2").arg(t->entry.label, q(e.what())));
            return false;
        }
        // The block's own layout, its top centred at the insertion point (or beside, clear of the nodes
        // there); every node a hint.
        const std::map<NodeId, QPointF> block = canvas_->layoutBlock(patch);
        QRectF box;
        for (const auto& [id, node] : patch.nodes)
            if (node && block.count(id)) {
                const QSizeF size = canvas_->newNodeSize(node->op);
                box = box.united(QRectF(where + block.at(id) - QPointF(size.width() / 2, size.height() / 2), size));
            }
        where += canvas_->freeSpace(box).topLeft() - box.topLeft();
        for (auto& [id, node] : patch.nodes)
            if (node && block.count(id))
                node->position = edit::Point{std::round(where.x() + block.at(id).x()), std::round(where.y() + block.at(id).y())};
        text = tr("Insert %1").arg(t->entry.label);
    } else {
        Operator op = defaultOperator(*type);
        op.name = doc_.uniqueName(opTypeName(*type));
        if (*type == OpType::Layout && !inputs.empty())  // a new reshape starts as the identity
            op.layout_shape = inputs.front() == edit::kNetworkInput ? doc_.header().input
                                                                    : doc_.outputShape(inputs.front()).value_or(Shape{1, 1, 1});
        // The centre: below the inputs by half the box (about 40 points tall), or beside, clear of the nodes there.
        const QSizeF size = canvas_->newNodeSize(op);
        const QPointF meant = at ? where : where + QPointF(0, size.height() / 2);
        const QPointF centre = canvas_->freeSpace(QRectF(meant - QPointF(size.width() / 2, size.height() / 2), size)).center();
        patch = edit::addNode(doc_, op, inputs, edit::Point{std::round(centre.x()), std::round(centre.y())});
        text = tr("Add %1").arg(q(op.name));
    }
    const NodeId first_new = doc_.nextId();
    if (!push(patch, text)) return false;
    std::set<NodeId> added;
    for (const auto& [id, node] : patch.nodes)
        if (node && id >= first_new) added.insert(id);
    canvas_->setSelection(added);
    canvas_->reveal(added);
    return true;
}

void EditorView::deleteSelection() {
    std::vector<NodeId> ids;
    for (NodeId id : canvas_->selection())
        if (id != edit::kNetworkInput) ids.push_back(id);
    if (ids.empty()) return;
    push(edit::removeNodes(doc_, ids), ids.size() == 1 ? tr("Delete %1").arg(q(doc_.node(ids[0])->op.name))
                                                       : tr("Delete %1 operators").arg(ids.size()));
}

void EditorView::copySelection() {
    clipboard_ = copyNodes(doc_, canvas_->selection(), shownPositions());
    pastes_ = 0;
    if (!clipboard_.empty()) emit message(tr("Copied %1 operators").arg(clipboard_.size()));
}

void EditorView::paste() {
    if (clipboard_.empty()) return;
    ++pastes_;
    const edit::Patch patch = edit::paste(doc_, clipboard_, true, {40.0 * pastes_, 40.0 * pastes_});
    if (!push(patch, tr("Paste %1 operators").arg(clipboard_.size()))) return;
    std::set<NodeId> pasted;
    for (const auto& [id, node] : patch.nodes) pasted.insert(id);
    canvas_->setSelection(pasted);
}

void EditorView::duplicateSelection() {
    const std::vector<edit::Node> nodes = copyNodes(doc_, canvas_->selection(), shownPositions());
    if (nodes.empty()) return;
    const edit::Patch patch = edit::paste(doc_, nodes, true, {40, 40});
    if (!push(patch, tr("Duplicate %1 operators").arg(nodes.size()))) return;
    std::set<NodeId> copies;
    for (const auto& [id, node] : patch.nodes) copies.insert(id);
    canvas_->setSelection(copies);
}

void EditorView::repeatSelection(int copies) {
    std::vector<NodeId> ids;
    for (NodeId id : canvas_->selection())
        if (id != edit::kNetworkInput) ids.push_back(id);
    if (ids.empty()) return refuse(tr("Repeat: select a block first (drag a band around it)"));
    // Nodes without a hint are pinned where they are shown, so the copies land below the block.
    edit::Patch pin;
    for (NodeId id : ids)
        if (!doc_.node(id)->position) {
            edit::Node n = *doc_.node(id);
            const QPointF p = canvas_->position(id);
            n.position = edit::Point{std::round(p.x()), std::round(p.y())};
            pin.nodes[id] = n;
        }
    edit::Patch patch;
    try {
        edit::Document pinned = doc_;
        if (!pin.empty()) pinned.apply(pin);
        patch = overlay(pin, edit::repeat(pinned, ids, copies));
    } catch (const std::exception& e) {
        return refuse(tr("Repeat: %1").arg(q(e.what())));
    }
    push(patch, tr("Repeat ×%1").arg(copies));
}

void EditorView::renameCurrent() { properties_->editName(); }

void EditorView::autoLayout() {
    edit::Patch patch;
    for (NodeId id : doc_.ids())
        if (const edit::Node* n = doc_.node(id); n->position) {
            edit::Node unplaced = *n;
            unplaced.position.reset();
            patch.nodes[id] = unplaced;
        }
    if (!patch.empty()) push(patch, tr("Auto layout"));
    canvas_->autoLayout(true);
}

}  // namespace partita

#pragma once
// The Learn-to-Scale model options of docs/methods/l2s.md#model-options as a row of controls: the
// per-core compute model, the NoC timing (burst at x flits/cycle/node, or
// ideal), SS_Mask's keep probability at 1, 2 and 3 hops, and a button back to
// the defaults, in one row or two when narrow. The row only shows settings
// and edits them; the view asks.
#include <vector>

#include <QWidget>

#include "core/run/l2s_settings.h"

class QBoxLayout;
class QComboBox;
class QDoubleSpinBox;
class QPushButton;

namespace partita {

class L2sModelControls : public QWidget {
    Q_OBJECT
public:
    static constexpr double kMinRate = 0.05, kMaxRate = 2;  // flits/cycle/node; 2 = a port's channels

    explicit L2sModelControls(QWidget* parent = nullptr);

    // Shows `s`'s models; `hop_keep` is the SS_Mask keep it evaluates with (the preset's when `s`
    // has none). Emits nothing.
    void show(const L2sSettings& s, const std::vector<double>& hop_keep);
    // `s` with the controls' models. A number left as shown keeps the shown settings' exact value
    // (a spin box rounds), and the hop keep is set only when one of its boxes changed.
    void applyTo(L2sSettings& s) const;

    l2s::ComputeModel compute() const;
    l2s::CommModel comm() const;
    double rate() const;
    std::vector<double> hopKeep() const;  // what the boxes show

    QComboBox* computeBox() const { return compute_; }
    QComboBox* commBox() const { return comm_; }
    QDoubleSpinBox* rateBox() const { return rate_; }
    QDoubleSpinBox* keepBox(int hops) const { return keep_[hops - 1]; }  // 1, 2, 3
    QPushButton* defaultsButton() const { return defaults_; }

    // The hints are one row's height; the height for a width says when it needs two, and a resize
    // that wraps raises the minimum height to match (the layouts above do not ask).
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    int bothWidth() const;  // the two groups side by side
    void resizeEvent(QResizeEvent* event) override;

signals:
    void changed();            // the user changed a model
    void defaultsRequested();  // back to the default models and the preset's hop keep

private:
    QWidget* inner_ = nullptr;  // holds row_
    QBoxLayout* row_ = nullptr;
    QWidget* groups_[2] = {};  // the models, the hop keep
    QComboBox* compute_ = nullptr;
    QComboBox* comm_ = nullptr;
    QDoubleSpinBox* rate_ = nullptr;
    QDoubleSpinBox* keep_[3] = {};
    QPushButton* defaults_ = nullptr;
    // What show() set: the exact values and what the boxes made of them.
    double shown_rate_ = 0, shown_rate_box_ = 0;
    std::vector<double> shown_keep_, shown_keep_box_;  // 3 each
    bool updating_ = false;
};

}  // namespace partita

#include "widgets/common/model_csv.h"

#include "widgets/common/result_table_model.h"

namespace partita {

std::string csvText(const QVariant& value) {
    switch (value.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float: return formatNumber(value.toDouble());
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::Long:
    case QMetaType::LongLong: return std::to_string(value.toLongLong());
    case QMetaType::ULong:
    case QMetaType::ULongLong: return std::to_string(value.toULongLong());
    default: return value.toString().toStdString();
    }
}

CsvTable csvFromModel(const QAbstractItemModel& model) {
    CsvTable t;
    std::vector<int> columns;
    for (int c = 0; c < model.columnCount(); ++c) {
        const QVariant name = model.headerData(c, Qt::Horizontal, CsvTextRole);
        if (!name.isValid()) continue;
        columns.push_back(c);
        t.header.push_back(name.toString().toStdString());
    }
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, 0).data(HeadingRole).toBool()) continue;
        std::vector<std::string> row;
        for (int c : columns) {
            const QModelIndex i = model.index(r, c);
            const QVariant csv = i.data(CsvTextRole);
            const QVariant raw = i.data(RawValueRole);
            row.push_back(csv.isValid() ? csv.toString().toStdString()
                                        : raw.isValid() ? csvText(raw) : i.data().toString().toStdString());
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace partita

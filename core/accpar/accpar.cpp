#include "core/accpar/accpar.h"

#include <stdexcept>

#include "core/search/methods.h"
#include "core/study/studies.h"
#include "core/util/error.h"

namespace partita {

AccParResult runAccPar(const LayerTable& layers, const Array& array, const AccParParams& params, const Grid* given,
                       RatioPolicy given_ratios, const CancelFn& cancel) {
    const auto stopIf = [&] {
        if (cancel && cancel()) throw Cancelled();
    };
    AccParResult r;
    stopIf();
    r.accpar = given ? planHierarchy(layers, array, params, Scheme::Given, given, given_ratios)
                     : planHierarchy(layers, array, params, Scheme::AccPar);
    stopIf();
    r.dp = planHierarchy(layers, array, params, Scheme::DataParallel);
    stopIf();
    r.owt = planHierarchy(layers, array, params, Scheme::OneWeirdTrick);
    stopIf();
    r.hypar = planHierarchy(layers, array, params, Scheme::HyPar);
    try {
        requireChain(layers);
    } catch (const std::invalid_argument& e) {
        r.hypar_refused = e.what();
    }
    return r;
}

AccParStudy accparStudy(const std::vector<LayerTable>& networks, const Array& array, const AccParParams& params) {
    AccParStudy s;
    std::vector<double> owt, hypar, accpar;
    for (const auto& layers : networks) {
        StudyRow row;
        row.network = layers.network;
        const AccParResult r = runAccPar(layers, array, params);
        row.owt = r.dp.step_time_s / r.owt.step_time_s;
        row.hypar = r.dp.step_time_s / r.hypar.step_time_s;
        row.accpar = r.speedupVsDp();
        row.step_dp_s = r.dp.step_time_s;
        row.step_accpar_s = r.accpar.step_time_s;
        owt.push_back(row.owt);
        hypar.push_back(row.hypar);
        accpar.push_back(row.accpar);
        s.rows.push_back(row);
    }
    s.geo_owt = geometricMean(owt);
    s.geo_hypar = geometricMean(hypar);
    s.geo_accpar = geometricMean(accpar);
    return s;
}

}  // namespace partita
